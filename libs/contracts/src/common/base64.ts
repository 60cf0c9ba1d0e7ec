/** The length of `bytes` bytes in base64 (padded): what a file of that size takes inside a JSON body. */
export const base64Length = (bytes: number): number => Math.ceil(bytes / 3) * 4;
