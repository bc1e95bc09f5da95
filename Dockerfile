# nsysx in a container: the Notebook server on the workshop course.
#   docker build -t nsysx .
#   docker run --rm -p 8888:8888 nsysx          # then open the URL it prints
# Stage 1 builds the static nsysx binary; stage 2 is Debian with the classic
# Notebook and nbconvert, the nsysx kernel, the notebooks and the profiles
# they open, run as an unprivileged user.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/nsysx ./cmd/nsysx

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends jupyter-notebook jupyter-nbconvert python3-nbconvert python3-nbclient \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/nsysx /usr/local/bin/nsysx
RUN nsysx kernel install --sys-prefix \
    && useradd --create-home --uid 1000 --shell /bin/bash nsysx
COPY --chown=nsysx:nsysx notebooks/ /home/nsysx/nsysx/notebooks/
COPY --chown=nsysx:nsysx testdata/profiles/ /home/nsysx/nsysx/testdata/profiles/
COPY --chown=nsysx:nsysx testdata/workloads/ /home/nsysx/nsysx/testdata/workloads/
USER nsysx
WORKDIR /home/nsysx/nsysx/notebooks
EXPOSE 8888
CMD ["jupyter", "notebook", "--ip=0.0.0.0", "--port=8888", "--no-browser", "--NotebookApp.default_url=/tree/README.md"]
