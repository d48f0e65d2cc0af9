#!/usr/bin/env bash
# Real single-node OpenSearch (with the k-NN plugin) on loopback, from Maven Central artifacts.
#   scripts/opensearch.sh start   fetch (cached), assemble, install k-NN, start, wait for green
#   scripts/opensearch.sh stop    stop the node started by this script
#   scripts/opensearch.sh status  print cluster health
#   scripts/opensearch.sh fetch   only fetch and assemble the distribution
# Env: OPENSEARCH_VERSION (2.19.1), OPENSEARCH_KNN_VERSION ($OPENSEARCH_VERSION.0),
#      OPENSEARCH_PORT (9200), PARTSEARCH_CACHE (~/.cache/partsearch), OPENSEARCH_HEAP (1g),
#      OPENSEARCH_USER (opensearch; only used when run as root), OPENSEARCH_NODE_DIR
#      (/var/lib/partsearch; run dir when run as root).
# Needs Java 17+, Maven (Maven Central only) and unzip. The Maven k-NN zip carries no native
# faiss/nmslib libraries, so indices use the lucene engine.
#
# Maven Central has only the integ-test distribution (server + transport-netty4). The modules
# the project needs - lang-painless (k-NN extends it) and analysis-common (ngram, edge_ngram,
# path_hierarchy, pattern_replace, ...) - are published there only as jars, so this script
# assembles $HOME_DIR/modules/<name>/ from them (jars + plugin-descriptor.properties
# [+ plugin-security.policy]); scripts/opensearch/pom.xml lists what is fetched.
#
# OpenSearch refuses to run as root: when this script runs as root it creates (once) the system
# user $OPENSEARCH_USER and starts the node as that user, with its run dir (config copy, data,
# logs, pid file) under $OPENSEARCH_NODE_DIR. If that user cannot read the cache (e.g. it lives
# under /root, mode 700), the assembled distribution is also copied there (read-only for it).
set -euo pipefail
VERSION="${OPENSEARCH_VERSION:-2.19.1}"
KNN_VERSION="${OPENSEARCH_KNN_VERSION:-$VERSION.0}"
PORT="${OPENSEARCH_PORT:-9200}"
CACHE="${PARTSEARCH_CACHE:-$HOME/.cache/partsearch}"
HEAP="${OPENSEARCH_HEAP:-1g}"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
POM="$SCRIPT_DIR/opensearch/pom.xml"
DL="$CACHE/dl/opensearch-$VERSION-knn-$KNN_VERSION"   # what Maven copied (zips + module jars)
HOME_DIR="$CACHE/opensearch-$VERSION"                  # assembled distribution (+ k-NN)
STAMP_NAME=".partsearch-assembled"
ASSEMBLY_REV=1   # bump when the assembly below changes
URL="http://127.0.0.1:$PORT"

if [[ $EUID -eq 0 ]]; then
  NODE_USER="${OPENSEARCH_USER:-opensearch}"
  NODE_BASE="${OPENSEARCH_NODE_DIR:-/var/lib/partsearch}"
else
  NODE_USER=""
  NODE_BASE="$CACHE"
fi
RUN_DIR="$NODE_BASE/opensearch-run-$PORT"
PIDFILE="$RUN_DIR/opensearch.pid"

# The integ-test zip ships no JDK: use the machine's Java 17 (or whatever JAVA_HOME names).
if [[ -z "${OPENSEARCH_JAVA_HOME:-}" ]]; then
  if [[ -n "${JAVA_HOME:-}" ]]; then OPENSEARCH_JAVA_HOME="$JAVA_HOME"
  else OPENSEARCH_JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"; fi
fi
export OPENSEARCH_JAVA_HOME

log() { echo "$*" >&2; }

# Everything that determines the assembled tree; a change forces a re-assembly.
stamp() {
  echo "opensearch=$VERSION knn=$KNN_VERSION pom=$(cksum <"$POM" | cut -d' ' -f1) rev=$ASSEMBLY_REV"
}

# 1. Maven: resolve everything into $DL (skipped entirely once $DL is complete).
fetch_artifacts() {
  local want; want="pom=$(cksum <"$POM" | cut -d' ' -f1)"
  if [[ -f "$DL/.complete" && "$(cat "$DL/.complete")" == "$want" ]]; then return; fi
  log "fetching OpenSearch $VERSION, opensearch-knn $KNN_VERSION, lang-painless and analysis-common from Maven Central"
  rm -rf "$DL.tmp" && mkdir -p "$DL.tmp"
  local mvn_args=(-B -q -Dstyle.color=never -f "$POM" dependency:copy-dependencies -DoutputDirectory="$DL.tmp"
    -Dopensearch.version="$VERSION" -Dknn.version="$KNN_VERSION")
  # Offline first (everything may already be in ~/.m2), then online.
  if ! mvn -o "${mvn_args[@]}" >/dev/null 2>&1; then
    rm -rf "$DL.tmp" && mkdir -p "$DL.tmp"
    mvn "${mvn_args[@]}" >&2
  fi
  local f
  for f in "opensearch-$VERSION.zip" "opensearch-knn-$KNN_VERSION.zip" "lang-painless-$VERSION.jar" \
    "opensearch-scripting-painless-spi-$VERSION.jar" "analysis-common-$VERSION.jar"; do
    [[ -f "$DL.tmp/$f" ]] || { log "Maven did not deliver $f"; exit 1; }
  done
  echo "$want" >"$DL.tmp/.complete"
  rm -rf "$DL" && mv "$DL.tmp" "$DL"
}

# First class of $2 (candidates) present in jar $1.
pick_class() {
  local jar="$1" listing c; shift
  listing="$(unzip -Z1 "$jar")"
  for c in "$@"; do
    if grep -qx "${c//.//}.class" <<<"$listing"; then echo "$c"; return; fi
  done
  log "none of [$*] found in $jar"; exit 1
}

# $1 module dir, $2 name, $3 description, $4 classname, $5 extended.plugins
write_descriptor() {
  cat >"$1/plugin-descriptor.properties" <<EOF
# Assembled by scripts/opensearch.sh from the Maven Central jars (the zips are not published).
description=$3
version=$VERSION
name=$2
classname=$4
java.version=11
opensearch.version=$VERSION
custom.foldername=
extended.plugins=$5
has.native.controller=false
EOF
}

# 2. Unpack the distribution, add modules, install k-NN (skipped once assembled).
fetch() {
  if [[ -x "$HOME_DIR/bin/opensearch" && -f "$HOME_DIR/$STAMP_NAME" \
        && "$(cat "$HOME_DIR/$STAMP_NAME")" == "$(stamp)" ]]; then return; fi
  fetch_artifacts
  log "assembling OpenSearch $VERSION (+ lang-painless, analysis-common, opensearch-knn) in $HOME_DIR"
  rm -rf "$HOME_DIR.tmp" && mkdir -p "$HOME_DIR.tmp"
  (cd "$HOME_DIR.tmp" && unzip -q "$DL/opensearch-$VERSION.zip")
  local home; home="$(ls -d "$HOME_DIR.tmp"/opensearch-*)"

  # lang-painless: its jar + painless SPI + antlr4-runtime + asm*, minus anything already in lib/.
  local painless="$home/modules/lang-painless" jar
  mkdir -p "$painless"
  for jar in "$DL"/*.jar; do
    case "$(basename "$jar")" in analysis-common-*.jar) continue ;; esac
    [[ -e "$home/lib/$(basename "$jar")" ]] || cp "$jar" "$painless/"
  done
  local cls
  cls="$(pick_class "$painless/lang-painless-$VERSION.jar" \
    org.opensearch.painless.PainlessModulePlugin org.opensearch.painless.PainlessPlugin)"
  write_descriptor "$painless" lang-painless "An easy, safe and fast scripting language for OpenSearch" "$cls" ""
  cat >"$painless/plugin-security.policy" <<'EOF'
grant {
  // needed to generate runtime classes
  permission java.lang.RuntimePermission "createClassLoader";

  // needed to find the classloader to load whitelisted classes from
  permission java.lang.RuntimePermission "getClassLoader";
};
EOF

  # analysis-common: a single jar; extends lang-painless (ships a PainlessExtension).
  local analysis="$home/modules/analysis-common"
  mkdir -p "$analysis" && cp "$DL/analysis-common-$VERSION.jar" "$analysis/"
  cls="$(pick_class "$analysis/analysis-common-$VERSION.jar" \
    org.opensearch.analysis.common.CommonAnalysisModulePlugin \
    org.opensearch.analysis.common.CommonAnalysisModule \
    org.opensearch.analysis.common.CommonAnalysisPlugin)"
  write_descriptor "$analysis" analysis-common "Adds \"built in\" analyzers to OpenSearch." "$cls" lang-painless

  "$home/bin/opensearch-plugin" install --batch "file://$DL/opensearch-knn-$KNN_VERSION.zip" >&2
  stamp >"$home/$STAMP_NAME"
  rm -rf "$HOME_DIR" && mv "$home" "$HOME_DIR" && rm -rf "$HOME_DIR.tmp"
}

# Root only: make sure the unprivileged service user exists.
ensure_node_user() {
  if id -u "$NODE_USER" >/dev/null 2>&1; then return; fi
  log "creating system user $NODE_USER (OpenSearch refuses to run as root)"
  local nologin; nologin="$(command -v nologin || echo /usr/sbin/nologin)"
  useradd --system --user-group --no-create-home --home-dir /nonexistent --shell "$nologin" "$NODE_USER"
}

# Run "$@" as the service user (root) or as ourselves.
as_node_user() {
  if [[ -z "$NODE_USER" ]]; then "$@"
  elif command -v runuser >/dev/null; then runuser -u "$NODE_USER" -- "$@"
  else setpriv --reuid="$NODE_USER" --regid="$NODE_USER" --init-groups -- "$@"; fi
}

# The distribution the node runs from: $HOME_DIR, or (root, and $HOME_DIR unreadable for the
# service user) a root-owned, world-readable copy under $NODE_BASE, refreshed when $HOME_DIR is.
node_home() {
  if [[ -z "$NODE_USER" ]] || as_node_user test -r "$HOME_DIR/$STAMP_NAME"; then echo "$HOME_DIR"; return; fi
  local copy="$NODE_BASE/opensearch-$VERSION"
  if ! cmp -s "$HOME_DIR/$STAMP_NAME" "$copy/$STAMP_NAME"; then
    log "copying $HOME_DIR to $copy (readable for $NODE_USER)"
    rm -rf "$copy.tmp" "$copy" && cp -a "$HOME_DIR" "$copy.tmp" && mv "$copy.tmp" "$copy"
  fi
  echo "$copy"
}

health() { curl -fsS "$URL/_cluster/health?wait_for_status=${1:-yellow}&timeout=${2:-1s}" 2>/dev/null; }

start() {
  if health >/dev/null; then log "OpenSearch already answers on $URL"; return; fi
  fetch
  if [[ -n "$NODE_USER" ]]; then ensure_node_user; mkdir -p "$NODE_BASE" && chmod 755 "$NODE_BASE"; fi
  local home; home="$(node_home)"
  # Per-run config copy (the node writes its keystore there); relative log/dump paths of
  # jvm.options (relative to the home, which may be read-only) point into the run dir.
  mkdir -p "$RUN_DIR/data" "$RUN_DIR/logs"
  rm -rf "$RUN_DIR/config" && cp -r "$home/config" "$RUN_DIR/config"
  sed -i -e "s#file=logs/#file=$RUN_DIR/logs/#" -e "s#HeapDumpPath=data#HeapDumpPath=$RUN_DIR/data#" \
    -e "s#ErrorFile=logs/#ErrorFile=$RUN_DIR/logs/#" "$RUN_DIR/config/jvm.options"
  rm -f "$PIDFILE"
  if [[ -n "$NODE_USER" ]]; then chown -R "$NODE_USER:" "$RUN_DIR"; fi
  as_node_user env HOME="$RUN_DIR" OPENSEARCH_JAVA_HOME="$OPENSEARCH_JAVA_HOME" \
    OPENSEARCH_PATH_CONF="$RUN_DIR/config" \
    OPENSEARCH_JAVA_OPTS="-Xms$HEAP -Xmx$HEAP ${OPENSEARCH_JAVA_OPTS:-}" \
    "$home/bin/opensearch" -d -p "$PIDFILE" \
    -Ediscovery.type=single-node -Enetwork.host=127.0.0.1 -Ehttp.port="$PORT" \
    -Etransport.port=$((PORT + 100)) -Epath.data="$RUN_DIR/data" -Epath.logs="$RUN_DIR/logs" \
    -Ecluster.name=partsearch-dev -Ecluster.routing.allocation.disk.threshold_enabled=false \
    </dev/null >"$RUN_DIR/logs/console.log" 2>&1 \
    || { log "OpenSearch failed to start:"; tail -n 40 "$RUN_DIR/logs/console.log" >&2; exit 1; }
  local i pid
  for i in $(seq 1 120); do
    if health green 1s >/dev/null; then log "OpenSearch $VERSION is green on $URL"; return; fi
    if [[ $i -gt 5 && -f "$PIDFILE" ]]; then
      pid="$(cat "$PIDFILE")"; kill -0 "$pid" 2>/dev/null || { log "OpenSearch (pid $pid) exited"; break; }
    fi
    sleep 1
  done
  log "OpenSearch did not become green; last log lines:"
  tail -n 40 "$RUN_DIR/logs/partsearch-dev.log" >&2 || tail -n 40 "$RUN_DIR/logs/console.log" >&2 || true
  exit 1
}

stop() {
  if [[ -f "$PIDFILE" ]]; then
    local pid; pid="$(cat "$PIDFILE")"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$PIDFILE"
    log "OpenSearch stopped"
  else
    log "no pid file at $PIDFILE; nothing to stop"
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  fetch) fetch ;;
  status) health yellow 1s && echo || { log "OpenSearch does not answer on $URL"; exit 1; } ;;
  *) echo "usage: $0 start|stop|status|fetch" >&2; exit 2 ;;
esac
