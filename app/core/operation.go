package core

import (
	"fmt"
	"slices"

	"github.com/go-json-experiment/json/jsontext"
)

// Operation is one RFC 6902 operation, read from the event's own JSON so
// that a "value" of null stays distinct from an absent one (the AG-UI SDK's
// JSONPatchOperation cannot tell them apart).
type Operation struct {
	Op    string
	Path  string
	From  string
	Value jsontext.Value // as sent; nil when absent

	hasPath, hasFrom bool
	// unreadable says why the operation could not be read. ApplyPatch
	// reports it when it reaches the operation, so that an earlier
	// operation's failure is still the one named.
	unreadable string
}

// operationMembers are the members RFC 6902 defines; others are ignored.
var operationMembers = []string{"op", "path", "from", "value"}

// DecodeDelta reads the operations of a STATE_DELTA event, given as the
// event's JSON. Members other than op, path, from and value are ignored,
// as RFC 6902 section 4 says; a repeated member is an error.
func DecodeDelta(event []byte) ([]Operation, error) {
	dec := newDecoder(event)
	var ops []Operation
	err := readMember(dec, "delta", func() error {
		if err := readOpen(dec, '[', "delta"); err != nil {
			return err
		}
		for dec.PeekKind() != ']' {
			op, err := readOperation(dec)
			if err != nil {
				return err
			}
			ops = append(ops, op)
		}
		_, err := dec.ReadToken()
		if err != nil {
			return malformed(err)
		}
		return nil
	})
	return ops, err
}

// readOperation reads one operation. Only broken JSON is an error here:
// anything else wrong with the operation is kept for ApplyPatch to report.
func readOperation(dec *jsontext.Decoder) (Operation, error) {
	var op Operation
	if k := dec.PeekKind(); k != '{' {
		if err := dec.SkipValue(); err != nil {
			return op, malformed(err)
		}
		op.unreadable = "an operation must be an object"
		return op, nil
	}
	dec.ReadToken()
	seen := 0 // members read so far, as bits of operationMembers
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return op, malformed(err)
		}
		name := tok.String()
		value, err := dec.ReadValue()
		if err != nil {
			return op, malformed(err)
		}
		if op.unreadable != "" {
			continue
		}
		member := slices.Index(operationMembers, name)
		if member < 0 {
			continue
		}
		if seen&(1<<member) != 0 {
			op.unreadable = fmt.Sprintf("the operation has two %q members", name)
			continue
		}
		seen |= 1 << member
		if name == "value" {
			// Checked with the default options: a repeated name anywhere
			// inside the value is refused too.
			if !value.IsValid() {
				op.unreadable = "value: a repeated key or invalid text"
				continue
			}
			op.Value = value.Clone()
			continue
		}
		if value.Kind() != '"' {
			op.unreadable = name + ": must be a string"
			continue
		}
		unquoted, err := jsontext.AppendUnquote(nil, value)
		if err != nil {
			return op, malformed(err)
		}
		text := string(unquoted)
		switch name {
		case "op":
			op.Op = text
		case "path":
			op.Path, op.hasPath = text, true
		case "from":
			op.From, op.hasFrom = text, true
		}
	}
	_, err := dec.ReadToken()
	if err != nil {
		return op, malformed(err)
	}
	return op, nil
}
