// Package sariftest validates SARIF logs against the SARIF 2.1.0 JSON
// schema, for the tests of what writes them (check -sarif, proxy -sarif).
//
// The schema is sarif-2.1.0-rtm.5.json as the npm package
// @microsoft/jest-sarif 1.0.0-beta.0 ships it (lib/schemas/, MIT licence:
// NOTICE), byte for byte: the last release candidate of SARIF 2.1.0, the
// draft-04 schema OASIS then published as sarif-schema-2.1.0.json with
// small changes: the published errata01 schema also says "type": "string"
// beside a few enums and that a region has a startLine, charOffset or
// byteOffset (sarif.Write's regions always have a startLine), writes the
// language pattern differently, and allows a null "runs". No network is
// needed.
package sariftest

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed sarif-2.1.0-rtm.5.json
var schemaJSON []byte

// schemaURL is the schema's own id.
const schemaURL = "https://raw.githubusercontent.com/schemastore/schemastore/master/src/schemas/json/sarif-2.1.0-rtm.5.json"

// compiled is the schema, compiled once; formats (uri, uri-reference) are
// checked too.
var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
})

// Validate reports whether log is a valid SARIF 2.1.0 log: nil, or why
// not, every place at fault.
func Validate(log []byte) error {
	schema, err := compiled()
	if err != nil {
		return fmt.Errorf("the SARIF schema does not compile: %w", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(log))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return schema.Validate(doc)
}
