# pocketforge as a container: one static binary on a distroless base (CA certificates, tzdata and
# /etc/passwd with the non-root user "nonroot", uid 65532; no shell, no package manager), the data
# file on a volume.
#
#   docker build -t pocketforge .
#   docker run -p 8080:8080 -v pocketforge-data:/data pocketforge
#   docker run --rm -v pocketforge-data:/data pocketforge doctor      # the server stopped
#
# The listen address and the data file are set as POCKETFORGE_* variables rather than flags, so
# every subcommand run in the image finds them: the HEALTHCHECK's `pocketforge healthcheck`, and
# doctor, compact, export and import run against the volume. deploy/compose.yaml puts a reverse
# proxy in front and sets --external-url and --trusted-proxies.

ARG GO_VERSION=1.26

FROM golang:${GO_VERSION} AS builder
WORKDIR /src
COPY go.mod go.sum ./
# go.mod replaces go-icu-regex and json-iterator with these directories: their go.mod files
# must be there for the download.
COPY internal/icuregex/go.mod internal/icuregex/
COPY internal/jsoniter/go.mod internal/jsoniter/
RUN go mod download
COPY . .
ARG VERSION=dev
# The same build as .ci/run's: CGO_ENABLED=0, -trimpath, stripped.
RUN scripts/build-static.sh /usr/local/bin/pocketforge "$VERSION"
# The data directory, owned by the image's non-root user (distroless has no shell to mkdir).
RUN mkdir -p /volume/data && chown 65532:65532 /volume/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=builder /usr/local/bin/pocketforge /usr/local/bin/pocketforge
COPY --from=builder --chown=65532:65532 /volume/data /data
USER 65532:65532
# The managed mysql instances listen on all interfaces, on the ports of --sqldb-ports (its
# default range), so `docker run -p 13306-13405:13306-13405` reaches them.
ENV POCKETFORGE_ADDR=0.0.0.0:8080 \
    POCKETFORGE_DATA=/data/pocketforge.db \
    POCKETFORGE_SQLDB_LISTEN=0.0.0.0
VOLUME ["/data"]
EXPOSE 8080 13306-13405
# Ready once the store is open, the fixtures are loaded and the search index is built; the first
# start of a fresh volume loads the demo world, hence the start period.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
    CMD ["pocketforge", "healthcheck", "--timeout", "4s"]
ENTRYPOINT ["pocketforge"]
CMD ["serve"]
