package proto

import (
	"bytes"
	"errors"
	"io"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// node is one JSON value of an event being encoded, read whole first: which
// field carries a member can depend on a member after it (a message's
// content on its role).
type node struct {
	kind    jsontext.Kind // 'n', 't', 'f', '"', '0', '{' or '['
	text    string        // a string's value, a number as written
	members []named       // an object's, in order
	items   []*node       // an array's
}

type named struct {
	name  string
	value *node
}

// get is an object's member, nil when absent.
func (n *node) get(name string) *node {
	for _, m := range n.members {
		if m.name == name {
			return m.value
		}
	}
	return nil
}

// what names a value's kind, for errors.
func (n *node) what() string {
	switch n.kind {
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '{':
		return "an object"
	}
	return "an array"
}

// parseJSON reads exactly one JSON value: valid UTF-8, no member name given
// twice, nothing after it, at most jsonpatch.MaxDepth levels deep, as the
// engine reads an event.
func parseJSON(data []byte) (*node, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	n, err := readNode(dec, 1)
	if err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
		return nil, errors.New("something after the JSON value")
	}
	return n, nil
}

func readNode(dec *jsontext.Decoder, depth int) (*node, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	n := &node{kind: tok.Kind()}
	switch n.kind {
	case '"', '0':
		n.text = tok.String()
	case '{', '[':
		if depth > jsonpatch.MaxDepth {
			return nil, errors.New("nested deeper than " + strconv.Itoa(jsonpatch.MaxDepth) + " levels")
		}
		end := jsontext.Kind('}')
		if n.kind == '[' {
			end = ']'
		}
		for dec.PeekKind() != end {
			var name string // read before the value voids its token
			if n.kind == '{' {
				tok, err := dec.ReadToken()
				if err != nil {
					return nil, err
				}
				name = tok.String()
			}
			v, err := readNode(dec, depth+1)
			if err != nil {
				return nil, err
			}
			if n.kind == '{' {
				n.members = append(n.members, named{name, v})
			} else {
				n.items = append(n.items, v)
			}
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
	}
	return n, nil
}
