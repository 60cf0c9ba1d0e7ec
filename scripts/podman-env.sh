# Sourced (`. scripts/podman-env.sh`), never run: points podman and buildah at the project's own
# configuration, written here when missing, so they work on machines like these (no Docker engine,
# cgroups in hybrid mode; see docs/services/deployment.md, "Building without a registry"):
#   containers.conf  runtime runc (crun fails: "cgroups in hybrid mode not supported"), cgroupfs,
#                    events to a file, ulimits the machine may set (podman's defaults exceed them)
#   storage.conf     native overlay (vfs copies every layer: gigabytes for a few images)
# MAPI_CONTAINERS_DIR moves the files (default ~/.config/mapi-containers); a CONTAINERS_CONF or
# CONTAINERS_STORAGE_CONF already set is kept.
mapi_containers_dir="${MAPI_CONTAINERS_DIR:-${XDG_CONFIG_HOME:-$HOME/.config}/mapi-containers}"
mkdir -p "$mapi_containers_dir"
if [ ! -f "$mapi_containers_dir/containers.conf" ]; then
  cat >"$mapi_containers_dir/containers.conf" <<'CONF'
# Written by scripts/podman-env.sh.
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF
fi
if [ ! -f "$mapi_containers_dir/storage.conf" ]; then
  if [ "$(id -u)" = 0 ]; then
    mapi_graphroot=/var/lib/containers/storage mapi_runroot=/run/containers/storage
  else
    mapi_graphroot="${XDG_DATA_HOME:-$HOME/.local/share}/containers/storage"
    mapi_runroot="${XDG_RUNTIME_DIR:-/tmp/containers-$(id -u)}/containers"
  fi
  cat >"$mapi_containers_dir/storage.conf" <<CONF
# Written by scripts/podman-env.sh.
[storage]
driver = "overlay"
graphroot = "$mapi_graphroot"
runroot = "$mapi_runroot"
CONF
  unset mapi_graphroot mapi_runroot
fi
export CONTAINERS_CONF="${CONTAINERS_CONF:-$mapi_containers_dir/containers.conf}"
export CONTAINERS_STORAGE_CONF="${CONTAINERS_STORAGE_CONF:-$mapi_containers_dir/storage.conf}"
unset mapi_containers_dir
