package page

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// The state as a tree: each value a node, in the order its JSON has
// them (a Go map would lose the members' order), named by its JSON Pointer.

// Node is one value of a JSON document.
type Node struct {
	Pointer  string
	Key      string // its member name or index; "" for the root
	Kind     Kind
	Text     string // a scalar's JSON
	Children []Node
}

// Kind is a JSON value's kind.
type Kind int

const (
	Scalar Kind = iota
	Object
	Array
)

// ParseTree reads a JSON document into a tree.
func ParseTree(data []byte) (Node, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	n, err := parseNode(d, "", "")
	if err != nil {
		return Node{}, err
	}
	if _, err := d.Token(); err == nil {
		return Node{}, errors.New("more than one value")
	}
	return n, nil
}

func parseNode(d *json.Decoder, pointer, key string) (Node, error) {
	t, err := d.Token()
	if err != nil {
		return Node{}, err
	}
	n := Node{Pointer: pointer, Key: key}
	switch t := t.(type) {
	case json.Delim:
		close := json.Delim('}')
		n.Kind = Object
		if t == '[' {
			close, n.Kind = ']', Array
		}
		for i := 0; d.More(); i++ {
			name := strconv.Itoa(i)
			if n.Kind == Object {
				k, err := d.Token()
				if err != nil {
					return Node{}, err
				}
				name, _ = k.(string)
			}
			child, err := parseNode(d, pointer+"/"+escapeToken(name), name)
			if err != nil {
				return Node{}, err
			}
			n.Children = append(n.Children, child)
		}
		if end, err := d.Token(); err != nil || end != close {
			return Node{}, errors.New("unbalanced JSON")
		}
	case string:
		b, _ := json.Marshal(t)
		n.Text = string(b)
	case json.Number:
		n.Text = t.String()
	case bool:
		n.Text = strconv.FormatBool(t)
	case nil:
		n.Text = "null"
	}
	return n, nil
}

// escapeToken writes a member name as a JSON Pointer token (RFC 6901).
func escapeToken(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// Line is one line of the tree as drawn: a node, at its depth.
type Line struct {
	Pointer string
	Depth   int
	Key     string
	Text    string // a scalar's JSON, or what a branch holds: "{3}", "[5]"
	Branch  bool
	Open    bool
	Changed bool // the event changed this value
	Holds   bool // a value under it changed (shown on a closed branch)
}

// maxLines bounds the tree drawn: past it, the page says how many more
// lines there are rather than draw them.
const maxLines = 2000

// Lines are the tree's lines to draw: a branch is open when the person
// opened it (open), else when it is near the top or holds a change.
// More counts the lines left out past maxLines.
func Lines(root Node, changed []string, open map[string]bool) (lines []Line, more int) {
	isChanged := map[string]bool{}
	for _, p := range changed {
		isChanged[p] = true
	}
	var walk func(n Node, depth int)
	walk = func(n Node, depth int) {
		if len(lines) >= maxLines {
			more++
			if n.Kind != Scalar && isOpen(n, depth, changed, open) {
				for _, c := range n.Children {
					walk(c, depth+1)
				}
			}
			return
		}
		l := Line{Pointer: n.Pointer, Depth: depth, Key: n.Key, Text: n.Text, Changed: isChanged[n.Pointer]}
		if n.Kind != Scalar {
			l.Branch, l.Open = true, isOpen(n, depth, changed, open)
			l.Holds = holdsChange(n.Pointer, changed)
			l.Text = "{" + strconv.Itoa(len(n.Children)) + "}"
			if n.Kind == Array {
				l.Text = "[" + strconv.Itoa(len(n.Children)) + "]"
			}
		}
		lines = append(lines, l)
		if l.Branch && l.Open {
			for _, c := range n.Children {
				walk(c, depth+1)
			}
		}
	}
	walk(root, 0)
	return lines, more
}

func isOpen(n Node, depth int, changed []string, open map[string]bool) bool {
	if o, ok := open[n.Pointer]; ok {
		return o
	}
	return depth < 2 || holdsChange(n.Pointer, changed)
}

// holdsChange reports whether a change lies strictly under pointer.
func holdsChange(pointer string, changed []string) bool {
	for _, c := range changed {
		if strings.HasPrefix(c, pointer+"/") {
			return true
		}
	}
	return false
}
