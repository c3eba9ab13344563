# The sandbox as a container image: a static binary on a distroless base,
# run as a non-root user, listening on every interface of the container.
#
#   docker build --build-arg VERSION=$(git describe --tags --always) -t eshop-sandbox .
#   docker run --rm -p 8080:8080 eshop-sandbox
#
# For amd64 and arm64 at once (docker buildx; the Go stage runs on the
# building machine and cross-compiles, so no emulation is needed):
#
#   docker buildx build --platform linux/amd64,linux/arm64 -t eshop-sandbox .
#
# SANDBOX_PUBLIC_URL is the address clients use to reach the container (the
# sandbox puts it in the URLs it answers and only answers requests for that
# host or a loopback name); set it when you publish another port or use a
# service name, e.g. -e SANDBOX_PUBLIC_URL=http://sandbox:8080.

FROM --platform=$BUILDPLATFORM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
ARG TARGETOS TARGETARCH
RUN CGO_ENABLED=0 GOOS=${TARGETOS} GOARCH=${TARGETARCH} go build -ldflags "-s -w -X main.version=${VERSION}" -o /out/sandbox ./cmd/sandbox

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/sandbox /usr/local/bin/sandbox
USER nonroot:nonroot
ENV SANDBOX_PUBLIC_URL=http://127.0.0.1:8080
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/sandbox"]
CMD ["up", "--headless", "--addr", "0.0.0.0:8080"]
