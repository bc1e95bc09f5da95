# Multi-stage build of the nsysx binary (CLI and Jupyter kernel).
# Unbuilt here: our machines run no Docker engine; see README "Docker".
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/nsysx ./cmd/nsysx

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends \
        python3-jupyter-client jupyter-console python3-nbconvert python3-notebook ca-certificates \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/nsysx /usr/local/bin/nsysx
RUN nsysx kernel install --sys-prefix
WORKDIR /work
ENTRYPOINT ["nsysx"]
CMD ["stats", "--sample"]
