# partsearch API image (used by docker-compose.yml): the compiled JavaScript of dist/ on Node 20 with
# the production dependencies only (no TypeScript, no tsx).
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# onnxruntime-node's install script only downloads CUDA libraries, which the service does not use; the
# npm of this image (10.x) runs it, as it ignores package.json's allowScripts.
ENV ONNXRUNTIME_NODE_INSTALL=skip
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY scripts ./scripts
COPY src ./src
COPY ingest ./ingest
# npm ci builds the native modules and, through prepare, dist/; the development dependencies go after.
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY index-mappings ./index-mappings
COPY vocabulary ./vocabulary
ENV HOST=0.0.0.0 PORT=8080 PARTSEARCH_DATA_DIR=/data
EXPOSE 8080
# Exec form: node gets docker stop's SIGTERM itself and stops cleanly (requests and jobs in hand finish).
CMD ["node", "bin/partsearch.js", "start"]
