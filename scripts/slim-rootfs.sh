#!/usr/bin/env bash
# Copies out of a Debian root made by debootstrap (minbase) only the packages the runtime image needs,
# into a new root: the C and C++ runtimes Node links (libc6, libstdc++6, libgcc-s1), a shell and the
# few tools the Dockerfile and operators use in a container (dash, coreutils, findutils) with the
# libraries they link, base-files (os-release) and ca-certificates (the bundle update-ca-certificates
# made in the minbase root). Each package's files are those dpkg installed (var/lib/dpkg/info/*.list),
# so every file in the new root comes from a Debian package; /var/lib/dpkg/status lists exactly those
# packages (what image scanners read). Left out: apt, dpkg, perl, the login and mount tools, gconv
# modules, zoneinfo (Node carries its own ICU time zones) — 85 MB of minbase, of which this keeps ~20.
#   bash scripts/slim-rootfs.sh <minbase root> <new root>
set -euo pipefail
src=$1
dst=$2
die() { echo "slim-rootfs: ERROR: $*" >&2; exit 1; }
KEEP=(base-files libc6 libgcc-s1 libstdc++6 dash coreutils findutils libacl1 libattr1 libgmp10 libselinux1 libpcre2-8-0 libssl3 ca-certificates)

mkdir -p "$dst"
# usrmerge: /bin, /lib, … are links into /usr in the source; keep them links, and copy each file once.
map=()
for top in bin sbin lib lib32 lib64 libx32; do
  if [ -L "$src/$top" ]; then
    ln -s "$(readlink "$src/$top")" "$dst/$top"
    map+=("s#^/$top/#/$(readlink "$src/$top")/#")
  fi
done
sed_map=$(IFS=';'; echo "${map[*]:-}")

list=$(mktemp)
trap 'rm -f "$list"' EXIT
for pkg in "${KEEP[@]}"; do
  info="$src/var/lib/dpkg/info/$pkg.list"
  [ -f "$info" ] || info="$src/var/lib/dpkg/info/$pkg:amd64.list"
  [ -f "$info" ] || die "$pkg is not installed in $src"
  cat "$info"
done | { if [ -n "$sed_map" ]; then sed "$sed_map"; else cat; fi; } | sort -u | while IFS= read -r f; do
  case "$f" in /. | /bin | /sbin | /lib | /lib32 | /lib64 | /libx32) continue ;; esac
  # files removed from the minbase root on purpose (docs, man pages) stay out
  if [ -e "$src$f" ] || [ -L "$src$f" ]; then printf '%s\n' "${f#/}"; fi
done >"$list"
# What is no package's file but a root needs: accounts, name service, the loader's cache, the CA
# bundle and its links, and the usual empty directories.
for f in etc/passwd etc/group etc/shadow etc/gshadow etc/nsswitch.conf etc/ld.so.conf etc/ld.so.conf.d etc/ld.so.cache \
  etc/ssl/certs etc/hostname etc/hosts tmp var/tmp root usr/local/bin; do
  [ -e "$src/$f" ] && printf '%s\n' "$f"
done >>"$list"
tar -C "$src" --no-recursion -cf - -T "$list" | tar -C "$dst" -xf -
# the CA bundle's hashed links and the directories above, with their contents
tar -C "$src" -cf - etc/ssl/certs etc/ld.so.conf.d | tar -C "$dst" -xf -
chmod 1777 "$dst/tmp" "$dst/var/tmp"

# dpkg's status, narrowed to the packages copied
mkdir -p "$dst/var/lib/dpkg"
awk -v keep=" ${KEEP[*]} " 'BEGIN { RS = ""; ORS = "\n\n" } { split($0, l, "\n"); sub(/^Package: /, "", l[1]); if (index(keep, " " l[1] " ")) print }' \
  "$src/var/lib/dpkg/status" >"$dst/var/lib/dpkg/status"
[ "$(grep -c '^Package: ' "$dst/var/lib/dpkg/status")" = "${#KEEP[@]}" ] || die "dpkg status does not list the ${#KEEP[@]} packages"
