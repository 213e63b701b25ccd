# Multi-stage build of the bot: a static binary on a distroless base, run as a non-root user.
FROM golang:1.27.3 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/reversibot ./cmd/reversibot

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/reversibot /reversibot
USER nonroot:nonroot
EXPOSE 8080 9090
ENTRYPOINT ["/reversibot"]
