# partsearch API image (used by docker-compose.yml).
FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ curl \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev
COPY bin ./bin
COPY src ./src
COPY ingest ./ingest
COPY index-mappings ./index-mappings
COPY vocabulary ./vocabulary
COPY tsconfig.json ./
ENV HOST=0.0.0.0 PORT=8080 PARTSEARCH_DATA_DIR=/data
EXPOSE 8080
CMD ["node", "bin/partsearch.js", "start"]
