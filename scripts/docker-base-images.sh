#!/usr/bin/env bash
# Builds local stand-ins for the three Docker Hub images the Dockerfile and docs/cluster/compose.yaml
# use, for machines where Docker Hub does not answer (docs/OPERATIONS.md, "The image, tested"):
#
#   node:20-bookworm-slim  Debian 12 minbase (debootstrap) + this machine's Node 20 in /usr/local,
#                          with its headers (/usr/local/include/node) so node-gyp needs no download
#   redis:7                Debian 12's redis-server (7.0), listening on every interface
#   nginx:1.27             Debian 12's nginx (1.22), configured from /etc/nginx/conf.d like the official one
#
# Only Debian packages (from DEBIAN_MIRROR, default deb.debian.org) and the local Node go in. Run as
# root (debootstrap, chroot); needs debootstrap and a running Docker daemon. About 3 minutes.
# Existing images with these tags are replaced: do not run it where the real images are reachable.
set -euo pipefail

mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
if [[ $EUID -ne 0 ]]; then echo 'docker-base-images: run as root (debootstrap and chroot need it)' >&2; exit 1; fi
for tool in debootstrap docker node; do
  command -v "$tool" >/dev/null || { echo "docker-base-images: $tool is missing (apt-get install debootstrap docker.io)" >&2; exit 1; }
done
node_bin=$(readlink -f "$(command -v node)")
node_prefix=$(dirname "$(dirname "$node_bin")")
if [[ $(node -p 'process.versions.node.split(".")[0]') != 20 ]]; then echo 'docker-base-images: the local node is not Node 20' >&2; exit 1; fi
if [[ ! -d $node_prefix/include/node || ! -d $node_prefix/lib/node_modules/npm ]]; then
  echo "docker-base-images: $node_prefix has no Node headers or npm next to $node_bin" >&2; exit 1
fi

work=$(mktemp -d /var/tmp/waymark-base-images.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "debootstrap bookworm (minbase) from $mirror"
debootstrap --variant=minbase bookworm "$work/base" "$mirror" >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
cat >"$work/base/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF

# A copy of the base with Debian packages added (services are not started inside the chroot).
variant() {
  local dir=$work/$1; shift
  cp -a "$work/base" "$dir"
  if (($#)); then
    cp /etc/resolv.conf "$dir/etc/resolv.conf"
    printf '#!/bin/sh\nexit 101\n' >"$dir/usr/sbin/policy-rc.d" && chmod +x "$dir/usr/sbin/policy-rc.d"
    chroot "$dir" apt-get update -qq
    chroot "$dir" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1
    rm -f "$dir/usr/sbin/policy-rc.d"
  fi
  chroot "$dir" apt-get clean
  rm -rf "$dir"/var/lib/apt/lists/* "$dir/etc/resolv.conf"
}

# tag, folder, then `docker import --change` instructions.
import_image() {
  local tag=$1 dir=$2; shift 2
  local changes=(--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin')
  for change in "$@"; do changes+=(--change "$change"); done
  tar -C "$dir" -c . | docker import "${changes[@]}" - "$tag" >/dev/null
  echo "built $tag ($(docker image inspect -f '{{.Size}}' "$tag" | awk '{printf "%.0f MB", $1 / 1e6}'))"
}

# node: the layout of the official image (node, npm, npx and corepack in /usr/local).
variant node
mkdir -p "$work/node/usr/local/bin" "$work/node/usr/local/lib/node_modules" "$work/node/usr/local/include"
cp "$node_bin" "$work/node/usr/local/bin/node"
cp -a "$node_prefix/lib/node_modules/npm" "$work/node/usr/local/lib/node_modules/"
if [[ -d $node_prefix/lib/node_modules/corepack ]]; then cp -a "$node_prefix/lib/node_modules/corepack" "$work/node/usr/local/lib/node_modules/"; fi
cp -a "$node_prefix/include/node" "$work/node/usr/local/include/"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/node/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/node/usr/local/bin/npx"
import_image node:20-bookworm-slim "$work/node" "ENV NODE_VERSION=$(node -p process.versions.node)" 'CMD ["node"]'

# redis: Debian's build keeps protected mode on, which refuses other containers without a password;
# the official image turns it off. Its working folder is /data, where the append-only file goes.
variant redis redis-server
mkdir -p "$work/redis/data"
cat >"$work/redis/usr/local/bin/docker-entrypoint.sh" <<'EOF'
#!/bin/sh
if [ "$1" = redis-server ]; then shift; exec redis-server --protected-mode no "$@"; fi
exec "$@"
EOF
chmod +x "$work/redis/usr/local/bin/docker-entrypoint.sh"
import_image redis:7 "$work/redis" 'WORKDIR /data' 'EXPOSE 6379' 'ENTRYPOINT ["docker-entrypoint.sh"]' 'CMD ["redis-server"]'

# nginx: only conf.d (no Debian default site), logs to the container's output, in the foreground.
variant nginx nginx
rm -f "$work/nginx/etc/nginx/sites-enabled/default"
ln -sf /dev/stdout "$work/nginx/var/log/nginx/access.log"
ln -sf /dev/stderr "$work/nginx/var/log/nginx/error.log"
import_image nginx:1.27 "$work/nginx" 'EXPOSE 80' 'CMD ["nginx", "-g", "daemon off;"]'
