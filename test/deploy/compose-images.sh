#!/usr/bin/env bash
# compose-images.sh — the images compose.yaml names, in podman's store under $W, for
# test/deploy/compose.podman.test.ts. Each is made once and kept (delete $W to make them again).
#
# No image registry is reachable from CI, so, as ../shared/ci/container-check.sh does for node:*:
#   redis:7-bookworm     Debian bookworm minbase + Debian's redis-server (7.0), its entrypoint
#                        running it as the redis user in /data with protected mode off, as the
#                        official image's build does (a container's port is its network's only)
#   nginx:1.27-bookworm  Debian bookworm minbase + Debian's nginx (1.22) and the parts of the official
#                        image's entrypoint that compose.yaml relies on: /docker-entrypoint.d/*.envsh
#                        sourced, /etc/nginx/templates/*.template through envsubst into conf.d
#   baas-mock            the repository's Dockerfile as the container check built it
#                        (localhost/container-check:latest in CONTAINER_CHECK_W), copied across;
#                        built here with the check's own script when that store has none.
# Environment: W (default /tmp/compose-check), CONTAINER_CHECK_W (default /tmp/container-check).
# Prints the podman environment to use (CONTAINERS_STORAGE_CONF=… CONTAINERS_CONF=…) on its last line.
set -euo pipefail
W=${W:-/tmp/compose-check} CC=${CONTAINER_CHECK_W:-/tmp/container-check}
APP=$(cd "$(dirname "$0")/../.." && pwd)
say() { printf 'compose-images: %s\n' "$*" >&2; }

mkdir -p "$W"
printf '[storage]\ndriver="overlay"\ngraphroot="%s/storage"\nrunroot="%s/run"\n' "$W" "$W" >"$W/storage.conf"
# As the container check: this host refuses podman's default rlimits, and crun its cgroup layout.
printf '[containers]\ndefault_ulimits=["nofile=%s:%s","nproc=32768:32768"]\n[engine]\nruntime="runc"\ncgroup_manager="cgroupfs"\nevents_logger="file"\n' \
  "$(ulimit -Hn)" "$(ulimit -Hn)" >"$W/containers.conf"
export CONTAINERS_STORAGE_CONF=$W/storage.conf CONTAINERS_CONF=$W/containers.conf

mirror() {
  { grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}'
    grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}'; } | grep -v security | head -n 1
}

# $1 image, $2 Debian packages; then the function named $3 finishes the root file system in $m and
# the container $c (entrypoint, command, user).
standin() {
  local ref=$1 packages=$2 finish=$3 t
  say "making a local stand-in for $ref (Debian bookworm minbase + $packages)"
  t=$(mktemp -d)
  c=$(buildah from scratch); m=$(buildah mount "$c")
  # policy-rc.d: the packages' scripts must not start their daemons in the build.
  mkdir -p "$m/usr/sbin"; printf '#!/bin/sh\nexit 101\n' >"$m/usr/sbin/policy-rc.d"; chmod 755 "$m/usr/sbin/policy-rc.d"
  debootstrap --variant=minbase --include="$packages" bookworm "$m" "$(mirror)" >"$t/debootstrap.log" 2>&1 || { tail -n 20 "$t/debootstrap.log" >&2; exit 1; }
  rm -f "$m/usr/sbin/policy-rc.d"
  "$finish"
  rm -rf "$m"/var/lib/apt/lists/* "$m"/var/cache/apt/*.bin "$m"/usr/share/doc/* "$m"/usr/share/man/*
  buildah umount "$c" >/dev/null
  buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$c"
  buildah commit --rm -q "$c" "docker.io/library/$ref" >/dev/null
  rm -rf "$t"
}

finish_redis() {
  mkdir -p "$m/data"; chroot "$m" chown redis:redis /data
  # The official image: protected mode compiled off, run as redis (gosu there, setpriv here).
  printf '%s\n' '#!/bin/sh' 'set -e' \
    'if [ "${1#-}" != "$1" ]; then set -- redis-server "$@"; fi' \
    'if [ "$1" = redis-server ]; then set -- "$@" --protected-mode no; fi' \
    'if [ "$1" = redis-server ] && [ "$(id -u)" = 0 ]; then' \
    '  chown -R redis:redis /data' \
    '  exec setpriv --reuid=redis --regid=redis --init-groups "$@"' \
    'fi' 'exec "$@"' >"$m/usr/local/bin/docker-entrypoint.sh"
  chmod 755 "$m/usr/local/bin/docker-entrypoint.sh"
  buildah config --workingdir /data --volume /data --port 6379 --entrypoint '["docker-entrypoint.sh"]' --cmd '["redis-server"]' "$c"
}

finish_nginx() {
  # The official image has no default site of Debian's, and logs to the container's output.
  rm -f "$m/etc/nginx/sites-enabled/default"
  ln -sf /dev/stdout "$m/var/log/nginx/access.log"; ln -sf /dev/stderr "$m/var/log/nginx/error.log"
  # The official entrypoint, in short: before nginx starts, every executable /docker-entrypoint.d/*.envsh
  # is sourced and *.sh run, in order; its 20-envsubst-on-templates.sh writes each
  # /etc/nginx/templates/*.template into conf.d with the environment's own variables filled in
  # (only those, so that nginx's $uri and the like stay).
  cat >"$m/docker-entrypoint.sh" <<'SH'
#!/bin/sh
set -e
if [ "$1" = nginx ] || [ "$1" = nginx-debug ]; then
  for f in $(find /docker-entrypoint.d/ -follow -type f -print | sort -V); do
    case "$f" in
      *.envsh) if [ -x "$f" ]; then . "$f"; fi ;;
      *.sh) if [ -x "$f" ]; then "$f"; fi ;;
    esac
  done
fi
exec "$@"
SH
  mkdir -p "$m/docker-entrypoint.d" "$m/etc/nginx/templates"
  cat >"$m/docker-entrypoint.d/20-envsubst-on-templates.sh" <<'SH'
#!/bin/sh
set -e
defined=$(printf '${%s} ' $(env | cut -d= -f1))
for template in /etc/nginx/templates/*.template; do
  [ -f "$template" ] || continue
  envsubst "$defined" <"$template" >"/etc/nginx/conf.d/$(basename "$template" .template)"
done
SH
  chmod 755 "$m/docker-entrypoint.sh" "$m/docker-entrypoint.d/20-envsubst-on-templates.sh"
  buildah config --port 80 --stop-signal SIGQUIT --entrypoint '["/docker-entrypoint.sh"]' --cmd '["nginx", "-g", "daemon off;"]' "$c"
}

podman image exists docker.io/library/redis:7-bookworm || standin redis:7-bookworm redis-server,redis-tools finish_redis
podman image exists docker.io/library/nginx:1.27-bookworm || standin nginx:1.27-bookworm nginx,gettext-base finish_nginx

# baas-mock: the container check's image, copied when it is not the one copied last time ($W/baas-mock.id).
ccenv=(env CONTAINERS_STORAGE_CONF="$CC/storage.conf" CONTAINERS_CONF="$CC/containers.conf")
if ! "${ccenv[@]}" podman image exists localhost/container-check:latest 2>/dev/null; then
  say "no localhost/container-check:latest in $CC: building it with the container check's script"
  check=$APP/../shared/ci/container-check.sh
  [[ -f $check ]] || check=$APP/../../shared/ci/container-check.sh
  [[ -f $check ]] || { say "no ../shared/ci/container-check.sh to build the image with"; exit 1; }
  W=$CC bash "$check" "$APP" >&2
fi
want=$("${ccenv[@]}" podman image inspect localhost/container-check:latest --format '{{.Id}}')
if [[ $want != "$(cat "$W/baas-mock.id" 2>/dev/null)" ]] || ! podman image exists localhost/baas-mock:latest; then
  say "copying localhost/container-check:latest ($want) from $CC as baas-mock"
  # docker-archive: an OCI image has no HEALTHCHECK, and `podman healthcheck run` needs the image's.
  "${ccenv[@]}" podman save -q --format docker-archive -o "$W/baas-mock.tar" localhost/container-check:latest
  podman load -q -i "$W/baas-mock.tar" >/dev/null
  rm -f "$W/baas-mock.tar"
  podman tag localhost/container-check:latest localhost/baas-mock:latest
  echo "$want" >"$W/baas-mock.id"
  # The copy before this one, untagged now: each CI run's image would otherwise pile up in $W.
  podman image prune -f >/dev/null
fi
echo "CONTAINERS_STORAGE_CONF=$W/storage.conf CONTAINERS_CONF=$W/containers.conf"
