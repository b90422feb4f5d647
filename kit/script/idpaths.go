package script

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// The members AG-UI 1.0 defines as ids, and where: what record replaces
// with placeholders and what a replay gives the request's ids (ForRequest).
// One table, so that a replay renames every link a recording kept.
// Application data (a state, a custom event's value, a result, metadata)
// is no id, even where it holds one: this tool cannot know what it means.

// The kinds of id, named as record's placeholders are ("run-1").
const (
	ThreadKind    = "thread"
	RunKind       = "run"
	MessageKind   = "msg"
	CallKind      = "call"
	InterruptKind = "interrupt"
	SubagentKind  = "subagent"
	EntityKind    = "entity"
)

// memberKinds are the members that are ids wherever an event or a run
// input has them at its top level (or in RUN_STARTED's "input").
var memberKinds = map[string]string{
	"threadId":            ThreadKind,
	"runId":               RunKind,
	"parentRunId":         RunKind,
	"messageId":           MessageKind,
	"parentMessageId":     MessageKind,
	"toolCallId":          CallKind,
	"parentToolCallId":    CallKind,
	"interruptId":         InterruptKind,
	"subagentRunId":       SubagentKind,
	"parentSubagentRunId": SubagentKind,
	"entityId":            EntityKind,
}

// nestedKinds are ids deeper in: in messages (MESSAGES_SNAPSHOT, a run
// input), a run's outcome, a resume. "*" is any array item.
var nestedKinds = []struct {
	path []string
	kind string
}{
	{[]string{"messages", "*", "id"}, MessageKind},
	{[]string{"messages", "*", "toolCallId"}, CallKind},
	{[]string{"messages", "*", "subagentRunId"}, SubagentKind},
	{[]string{"messages", "*", "toolCalls", "*", "id"}, CallKind},
	{[]string{"outcome", "pendingToolCallIds", "*"}, CallKind},
	{[]string{"outcome", "interruptIds", "*"}, InterruptKind},
	{[]string{"outcome", "interrupts", "*", "id"}, InterruptKind},
	{[]string{"outcome", "interrupts", "*", "toolCallId"}, CallKind},
	{[]string{"outcome", "interrupts", "*", "subagentRunId"}, SubagentKind},
	{[]string{"resume", "*", "interruptId"}, InterruptKind},
}

// idDepth is the deepest an id sits: a nested path inside "input". No
// string deeper is looked at, which keeps the walk linear.
const idDepth = 1 + 5

// ID is one id in a JSON document.
type ID struct {
	Kind       string
	Name       string // the member it is the value of; "" for an array item
	Depth      int    // 1 at the document's top level
	Start, End int    // its quoted value, within the document
}

// step is where the walk is within one container of the path.
type step struct {
	array bool
	name  string // the member being read, in an object
}

// EachID calls found with every id in doc, in order. doc must be JSON;
// duplicate names and invalid UTF-8 are accepted, as a stream may hold
// them. The work is linear in doc's size, however deep it nests.
func EachID(doc []byte, found func(ID)) error {
	if err := eachString(doc, kindAt, found); err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	return nil
}

// eachString calls found with every string in doc that kindOf, given
// the place it sits, calls a kind (not ""), down to idDepth.
func eachString(doc []byte, kindOf func([]step) string, found func(ID)) error {
	dec := jsontext.NewDecoder(bytes.NewReader(doc), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	var path [idDepth]step // the containers down to the next token, as deep as an id sits
	for {
		next := dec.PeekKind()
		if next == 0 {
			break // the end, or an error ReadToken returns below
		}
		depth := dec.StackDepth()
		parent, read := dec.StackIndex(depth)
		switch {
		case depth > idDepth || (next != '"' && next != '['):
		case parent == '{' && read%2 == 0: // a member's name
			tok, err := dec.ReadToken()
			if err != nil {
				return err
			}
			path[depth-1] = step{name: tok.String()}
			continue
		case next == '[':
			if depth < idDepth {
				path[depth] = step{array: true} // its items' place
			}
		default: // a string value
			value, err := dec.ReadValue()
			if err != nil {
				return err
			}
			if kind := kindOf(path[:depth]); kind != "" {
				end := int(dec.InputOffset())
				found(ID{Kind: kind, Name: path[depth-1].name, Depth: depth, Start: end - len(value), End: end})
			}
			continue
		}
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
	}
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// kindAt is the kind of id a string at this place is, or "" for a string
// that is no id.
func kindAt(path []step) string {
	if len(path) > 1 && !path[0].array && path[0].name == "input" { // RUN_STARTED carries its run input
		path = path[1:]
	}
	if len(path) == 1 {
		if path[0].array {
			return ""
		}
		return memberKinds[path[0].name]
	}
	for _, n := range nestedKinds {
		if matches(path, n.path) {
			return n.kind
		}
	}
	return ""
}

func matches(path []step, pattern []string) bool {
	if len(path) != len(pattern) {
		return false
	}
	for i, p := range pattern {
		if path[i].array != (p == "*") || (!path[i].array && path[i].name != p) {
			return false
		}
	}
	return true
}
