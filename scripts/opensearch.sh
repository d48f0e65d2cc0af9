#!/usr/bin/env bash
# Real OpenSearch (with the k-NN plugin) on loopback, from Maven Central artifacts: one node, or a
# cluster of N nodes from the same distribution.
#   scripts/opensearch.sh start   fetch (cached), assemble, install k-NN, start every node of the
#                                 cluster that is not running, wait until all N are in and it is green
#   scripts/opensearch.sh stop    stop the nodes started by this script (all N)
#   scripts/opensearch.sh status  print cluster health and its nodes
#   scripts/opensearch.sh fetch   only fetch and assemble the distribution
# Options (after the command; each also as an environment variable):
#   --nodes N            OPENSEARCH_NODES (1). Node i listens on HTTP port PORT+i, transport TPORT+i.
#   --port PORT          OPENSEARCH_PORT (9200): HTTP port of the first node.
#   --transport-port T   OPENSEARCH_TRANSPORT_PORT (PORT+100): transport port of the first node.
#   --heap SIZE          OPENSEARCH_HEAP (1g): heap of each node (-Xms = -Xmx).
# e.g. `npm run opensearch:start -- --nodes 3 --port 9301 --transport-port 9401 --heap 512m`.
# One node runs as today (discovery.type=single-node, cluster partsearch-dev); N > 1 nodes form the
# cluster partsearch-<PORT>, every node eligible as cluster manager. `start` after a node was killed
# starts that node again (the others keep running); stop and status find N from the last start.
# Env: OPENSEARCH_VERSION (2.19.1), OPENSEARCH_KNN_VERSION ($OPENSEARCH_VERSION.0),
#      PARTSEARCH_CACHE (~/.cache/partsearch), OPENSEARCH_USER (opensearch; only used when run as
#      root), OPENSEARCH_NODE_DIR (/var/lib/partsearch; run dirs when run as root).
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
# user $OPENSEARCH_USER and starts the nodes as that user, each with its run dir (config copy, data,
# logs, pid file) under $OPENSEARCH_NODE_DIR. If that user cannot read the cache (e.g. it lives
# under /root, mode 700), the assembled distribution is also copied there (read-only for it).
set -euo pipefail
COMMAND="${1:-}"
[[ $# -gt 0 ]] && shift
NODES="${OPENSEARCH_NODES:-}"
PORT="${OPENSEARCH_PORT:-9200}"
TPORT="${OPENSEARCH_TRANSPORT_PORT:-}"
HEAP="${OPENSEARCH_HEAP:-1g}"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --nodes) NODES="$2"; shift 2 ;;
    --port) PORT="$2"; shift 2 ;;
    --transport-port) TPORT="$2"; shift 2 ;;
    --heap) HEAP="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
TPORT="${TPORT:-$((PORT + 100))}"
VERSION="${OPENSEARCH_VERSION:-2.19.1}"
KNN_VERSION="${OPENSEARCH_KNN_VERSION:-$VERSION.0}"
CACHE="${PARTSEARCH_CACHE:-$HOME/.cache/partsearch}"
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
# How many nodes the last `start` on $PORT made (stop and status read it when --nodes is not given).
NODES_FILE="$NODE_BASE/opensearch-cluster-$PORT.nodes"
if [[ -z "$NODES" ]]; then
  if [[ -f "$NODES_FILE" ]]; then NODES="$(cat "$NODES_FILE")"; else NODES=1; fi
fi
[[ "$NODES" =~ ^[1-9][0-9]*$ ]] || { echo "--nodes must be a whole number from 1, got $NODES" >&2; exit 2; }
if [[ $NODES == 1 ]]; then CLUSTER=partsearch-dev; else CLUSTER="partsearch-$PORT"; fi
run_dir() { echo "$NODE_BASE/opensearch-run-$1"; }

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

health() { curl -fsS "$URL/_cluster/health?wait_for_status=${1:-yellow}&timeout=${2:-1s}${3:+&wait_for_nodes=$3}" 2>/dev/null; }

# Pid of the node on HTTP port $1 when it runs, else nothing.
node_pid() {
  local pidfile; pidfile="$(run_dir "$1")/opensearch.pid"
  [[ -f "$pidfile" ]] || return 0
  local pid; pid="$(cat "$pidfile")"
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then echo "$pid"; fi
}

# Starts (in the background) the node with HTTP port $1, transport port $2, in cluster $CLUSTER.
start_node() {
  local port="$1" tport="$2" home="$3" dir; dir="$(run_dir "$1")"
  local stamp="cluster=$CLUSTER nodes=$NODES transport=$TPORT"
  # A run dir last used by another cluster holds that cluster's state: this node could not join.
  if [[ -f "$dir/.cluster" && "$(cat "$dir/.cluster")" != "$stamp" ]]; then
    log "node $port: its data belonged to $(cat "$dir/.cluster"); starting it empty"
    rm -rf "$dir/data"
  fi
  mkdir -p "$dir/data" "$dir/logs"
  echo "$stamp" >"$dir/.cluster"
  # Per-run config copy (the node writes its keystore there); relative log/dump paths of
  # jvm.options (relative to the home, which may be read-only) point into the run dir.
  rm -rf "$dir/config" && cp -r "$home/config" "$dir/config"
  sed -i -e "s#file=logs/#file=$dir/logs/#" -e "s#HeapDumpPath=data#HeapDumpPath=$dir/data#" \
    -e "s#ErrorFile=logs/#ErrorFile=$dir/logs/#" "$dir/config/jvm.options"
  rm -f "$dir/opensearch.pid"
  if [[ -n "$NODE_USER" ]]; then chown -R "$NODE_USER:" "$dir"; fi
  local discovery=(-Ediscovery.type=single-node)
  if [[ $NODES -gt 1 ]]; then
    local i seeds="" names=""
    for ((i = 0; i < NODES; i++)); do
      seeds+="${seeds:+,}127.0.0.1:$((TPORT + i))"
      names+="${names:+,}node-$((PORT + i))"
    done
    discovery=(-Ediscovery.seed_hosts="$seeds" -Ecluster.initial_cluster_manager_nodes="$names")
  fi
  as_node_user env HOME="$dir" OPENSEARCH_JAVA_HOME="$OPENSEARCH_JAVA_HOME" \
    OPENSEARCH_PATH_CONF="$dir/config" \
    OPENSEARCH_JAVA_OPTS="-Xms$HEAP -Xmx$HEAP ${OPENSEARCH_JAVA_OPTS:-}" \
    "$home/bin/opensearch" -d -p "$dir/opensearch.pid" \
    "${discovery[@]}" -Enode.name="node-$port" -Enetwork.host=127.0.0.1 -Ehttp.port="$port" \
    -Etransport.port="$tport" -Epath.data="$dir/data" -Epath.logs="$dir/logs" \
    -Ecluster.name="$CLUSTER" -Ecluster.routing.allocation.disk.threshold_enabled=false \
    </dev/null >"$dir/logs/console.log" 2>&1 \
    || { log "OpenSearch node $port failed to start:"; tail -n 40 "$dir/logs/console.log" >&2; exit 1; }
}

start() {
  local i missing=() port
  for ((i = 0; i < NODES; i++)); do
    port=$((PORT + i))
    if [[ -z "$(node_pid "$port")" ]] && ! curl -fsS "http://127.0.0.1:$port/" >/dev/null 2>&1; then missing+=("$i"); fi
  done
  if [[ ${#missing[@]} -eq 0 ]] && health yellow 1s "$NODES" >/dev/null; then
    log "OpenSearch already answers on $URL ($NODES node$([[ $NODES -gt 1 ]] && echo s))"; return
  fi
  fetch
  if [[ -n "$NODE_USER" ]]; then ensure_node_user; mkdir -p "$NODE_BASE" && chmod 755 "$NODE_BASE"; fi
  echo "$NODES" >"$NODES_FILE"
  local home; home="$(node_home)"
  # Side by side: `opensearch -d` returns once its node has started, and a new cluster's first node
  # waits for a quorum of the others.
  local pids=() failed=0 pid
  for i in "${missing[@]}"; do
    log "starting OpenSearch node $((PORT + i)) (transport $((TPORT + i)), heap $HEAP) of $CLUSTER"
    start_node $((PORT + i)) $((TPORT + i)) "$home" &
    pids+=("$!")
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  [[ $failed == 0 ]] || exit 1
  local tries dead
  for tries in $(seq 1 180); do
    if health green 1s "$NODES" >/dev/null; then
      log "OpenSearch $VERSION is green on $URL ($NODES node$([[ $NODES -gt 1 ]] && echo s): ports $PORT-$((PORT + NODES - 1)))"; return
    fi
    dead=""
    if [[ $tries -gt 5 ]]; then
      for i in "${missing[@]}"; do
        pid="$(cat "$(run_dir $((PORT + i)))/opensearch.pid" 2>/dev/null || true)"
        if [[ -n "$pid" ]] && ! kill -0 "$pid" 2>/dev/null; then dead=$((PORT + i)); fi
      done
    fi
    if [[ -n "$dead" ]]; then log "OpenSearch node $dead exited"; break; fi
    sleep 1
  done
  log "OpenSearch did not become green with $NODES node(s); last log lines:"
  for i in "${missing[@]}"; do
    local dir; dir="$(run_dir $((PORT + i)))"
    tail -n 20 "$dir/logs/$CLUSTER.log" >&2 2>/dev/null || tail -n 20 "$dir/logs/console.log" >&2 || true
  done
  exit 1
}

stop() {
  local i port pid stopped=0
  for ((i = 0; i < NODES; i++)); do
    port=$((PORT + i))
    pid="$(node_pid "$port")"
    if [[ -z "$pid" ]]; then rm -f "$(run_dir "$port")/opensearch.pid"; continue; fi
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$(run_dir "$port")/opensearch.pid"
    stopped=$((stopped + 1))
  done
  if [[ $stopped -gt 0 ]]; then log "OpenSearch stopped ($stopped node$([[ $stopped -gt 1 ]] && echo s))"
  else log "no OpenSearch node of this script runs on ports $PORT-$((PORT + NODES - 1)); nothing to stop"; fi
}

status() {
  health yellow 1s || { log "OpenSearch does not answer on $URL"; exit 1; }
  echo
  curl -fsS "$URL/_cat/nodes?h=name,http_address,node.role,cluster_manager,heap.percent&s=name" 2>/dev/null || true
}

case "$COMMAND" in
  start) start ;;
  stop) stop ;;
  fetch) fetch ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status|fetch [--nodes N] [--port PORT] [--transport-port PORT] [--heap SIZE]" >&2; exit 2 ;;
esac
