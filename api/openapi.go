package api

import (
	_ "embed"
	"fmt"
	"sort"

	"gopkg.in/yaml.v3"
)

// OpenAPI is the HTTP contract, api/openapi.yaml. The server reads the request schemas from it
// (property names and required fields), so decoding follows the document.
//
//go:embed openapi.yaml
var OpenAPI []byte

type openapiDoc struct {
	Paths      map[string]map[string]yaml.Node `yaml:"paths"`
	Components struct {
		Schemas map[string]openapiSchema `yaml:"schemas"`
	} `yaml:"components"`
}

type openapiSchema struct {
	Type                 string               `yaml:"type"`
	Required             []string             `yaml:"required"`
	Properties           map[string]yaml.Node `yaml:"properties"`
	AdditionalProperties *bool                `yaml:"additionalProperties"`
	Enum                 []string             `yaml:"enum"`
}

// requestShape is what strict decoding checks before the typed decode: exact property names
// (encoding/json alone matches names case-insensitively) and required fields present, not null.
type requestShape struct {
	name     string
	props    map[string]bool
	required []string
}

var contract = mustParseContract(OpenAPI)

type parsedContract struct {
	doc    openapiDoc
	shapes map[string]requestShape
}

func mustParseContract(b []byte) parsedContract {
	var doc openapiDoc
	if err := yaml.Unmarshal(b, &doc); err != nil {
		panic(fmt.Sprintf("api: openapi.yaml: %v", err))
	}
	shapes := map[string]requestShape{}
	for name, s := range doc.Components.Schemas {
		if s.Type != "object" || s.AdditionalProperties == nil || *s.AdditionalProperties {
			continue // only closed objects are request bodies
		}
		sh := requestShape{name: name, props: map[string]bool{}, required: s.Required}
		for p := range s.Properties {
			sh.props[p] = true
		}
		shapes[name] = sh
	}
	return parsedContract{doc: doc, shapes: shapes}
}

// shape returns the request schema named name; a missing one is a programming error caught by
// the route tests.
func (c parsedContract) shape(name string) requestShape {
	sh, ok := c.shapes[name]
	if !ok {
		panic("api: openapi.yaml has no closed request schema " + name)
	}
	return sh
}

// operations lists "METHOD path" for every operation in the document.
func (c parsedContract) operations() []string {
	var out []string
	for p, ops := range c.doc.Paths {
		for m := range ops {
			switch m {
			case "get", "post", "put", "patch", "delete":
				out = append(out, upper(m)+" "+p)
			}
		}
	}
	sort.Strings(out)
	return out
}

// messageKeys is the MessageKey enum of the document.
func (c parsedContract) messageKeys() []string {
	return c.doc.Components.Schemas["MessageKey"].Enum
}

func upper(s string) string {
	b := []byte(s)
	for i, ch := range b {
		if 'a' <= ch && ch <= 'z' {
			b[i] = ch - 'a' + 'A'
		}
	}
	return string(b)
}
