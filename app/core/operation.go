package core

import (
	"fmt"

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
	seen := map[string]bool{}
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
		switch name {
		case "op", "path", "from", "value":
		default:
			continue
		}
		if seen[name] {
			op.unreadable = fmt.Sprintf("the operation has two %q members", name)
			continue
		}
		seen[name] = true
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
