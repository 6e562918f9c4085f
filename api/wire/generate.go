// Package wire holds the request and response bodies of the HTTP API, generated from
// api/openapi.yaml so that the document and the server cannot drift apart.
package wire

//go:generate go tool oapi-codegen -config cfg.yaml ../openapi.yaml
