# nsysx in a container.
#   docker build -t nsysx .
#   docker run --rm nsysx                                    # the sample's reports (nsysx stats --sample)
#   docker run --rm nsysx nsysx stats -r cuda_gpu_kern_sum testdata/profiles/train.sqlite.gz
#   docker run --rm -p 8888:8888 nsysx scripts/notebooks.sh --ip=0.0.0.0   # the Notebook server on the course
# Stage 1 builds the static nsysx binary, downloading only the modules its
# packages come from (the Beam runner is a module of its own, beam/, and is
# not built here); stage 2 is Debian with the classic Notebook and
# nbconvert, the nsysx kernel, the notebooks and the profiles they open,
# run as an unprivileged user.
FROM golang:1.26-bookworm AS build
WORKDIR /src
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
COPY --chown=nsysx:nsysx scripts/notebooks.sh /home/nsysx/nsysx/scripts/notebooks.sh
USER nsysx
WORKDIR /home/nsysx/nsysx
EXPOSE 8888
CMD ["nsysx", "stats", "--sample"]
