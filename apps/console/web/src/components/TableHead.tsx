/** A table's column headers: one `<th scope="col">` each; a `false` entry (a column the role does not see) is left out. */
export function TableHead({ columns }: { columns: (string | false)[] }) {
  return (
    <thead>
      <tr>
        {columns
          .filter((c): c is string => c !== false)
          .map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
      </tr>
    </thead>
  );
}
