# The grid's container: the `anymorph` command line (no editor, no GPU) and the entry point
# that Kubernetes and Slurm run (deploy/entrypoint.sh). Build from the repository root:
#   docker build -t anymorph-grid .
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
# The build server's binary: runtime, io, validation and the command line, without
# egui/wgpu/winit (see Cargo.toml, feature `editor`).
RUN cargo build --release --locked -p anymorph --no-default-features --features jemalloc \
    && install -m 0755 target/release/anymorph /usr/local/bin/anymorph

FROM debian:bookworm-slim
COPY --from=build /usr/local/bin/anymorph /usr/local/bin/anymorph
COPY deploy/entrypoint.sh /usr/local/bin/entrypoint.sh
# Clips and creatures are mounted at /data, results at /results (see deploy/k8s).
ENV RESULTS=/results
USER 65534:65534
ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]
CMD ["shard", "--clips", "/data/clips", "--creatures", "/data/creatures"]
