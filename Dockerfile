# syntax=docker/dockerfile:1
# statesync: the same binary as `./statesync`, for `statesync run` (pipeline + REST) and `statesync agent`.
# Build:  docker build -t statesync .        (the docker-compose.yml at the top level builds it too)

# --- build stage: the distribution layout ops/dist/target/statesync/{bin,lib} ---------------------------
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# The cache mount keeps the local Maven repository between builds (BuildKit), so a rebuild after a source
# change downloads nothing. .dockerignore keeps target/ and data/ out of the context.
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -DskipTests package -pl ops/dist -am

# --- runtime stage ---------------------------------------------------------------------------------------
FROM eclipse-temurin:17-jre
# curl is for the container healthchecks (GET /readyz); nothing else is added to the JRE image.
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 statesync \
    && useradd --system --uid 10001 --gid statesync --home-dir /var/lib/statesync --create-home --shell /usr/sbin/nologin statesync
COPY --from=build /src/ops/dist/target/statesync/ /opt/statesync/
# bin/statesync passes JAVA_OPTS to the JVM: size the heap from the container's memory limit, and let the
# orchestrator restart a JVM that ran out of memory rather than keep a half-working one. Half the limit, not more:
# RocksDB and the JVM's own memory take a large share beside the heap, and the REST view's values live in its mapped
# snapshot file, whose page cache the limit counts too, and which grows with the resources as the live heap does.
# STATESYNC_CDS_DIR: the class-data archive that bin/statesync writes at the first clean stop and maps at every
# later start (docs/operations.md, AppCDS), on the volume so that it outlives the container.
ENV STATESYNC_STATE_DIR=/var/lib/statesync/streams \
    STATESYNC_CDS_DIR=/var/lib/statesync/cds \
    STATESYNC_HTTP_PORT=8080 \
    STATESYNC_LOG_FORMAT=json \
    JAVA_OPTS="-XX:MaxRAMPercentage=50 -XX:+ExitOnOutOfMemoryError"
WORKDIR /var/lib/statesync
# State stores (RocksDB) live on a volume: keep it across restarts for a fast start.
VOLUME ["/var/lib/statesync"]
USER 10001:10001
EXPOSE 8080
ENTRYPOINT ["/opt/statesync/bin/statesync"]
CMD ["run"]
