package record

import (
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agent-analysis/agent-analysis/kit/script"
)

// ids replaces the ids an agent generated with stable placeholders, so
// that two recordings of one agent differ only where its behaviour does:
// the requested run is "run-1" of "thread-1", whatever order the input
// names them in; every other id takes the next placeholder of its kind as
// it first appears: threads "thread-N", runs "run-N", messages "msg-N",
// tool calls "call-N", interrupts "interrupt-N", subagent runs
// "subagent-N", reasoning entities "entity-N". One source id of one kind
// is one placeholder wherever it appears, so every relation holds (a
// result's toolCallId, a parentRunId); an agent that uses one id for a
// thread and a run gets two.
//
// Only the members AG-UI 1.0 defines as ids are touched, where
// script.EachID finds them; a replay renames the same (Script.ForRequest).
type ids struct {
	to    map[source]string // a source id → its placeholder
	count map[string]int    // placeholders given, by kind
}

// source is an id as the agent sent it. One that is not UTF-8 is keyed on
// its bytes as written: unquoting would make every such id one.
type source struct {
	kind, id string
	raw      bool
}

// newIDs gives the requested run, named by the input sent, the first
// placeholders of their kinds.
func newIDs(sent []byte) (*ids, error) {
	m := &ids{to: map[source]string{}, count: map[string]int{}}
	var thread, run *source
	err := script.EachID(sent, func(id script.ID) {
		s := sourceOf(sent, id)
		switch {
		case id.Depth != 1:
		case id.Name == "threadId" && thread == nil:
			thread = &s
		case id.Name == "runId" && run == nil:
			run = &s
		}
	})
	for _, s := range []*source{thread, run} {
		if s != nil {
			m.placeholder(*s)
		}
	}
	return m, err
}

func sourceOf(doc []byte, id script.ID) source {
	quoted := doc[id.Start:id.End]
	if text, err := jsontext.AppendUnquote(nil, quoted); err == nil {
		return source{kind: id.Kind, id: string(text)}
	}
	return source{kind: id.Kind, id: string(quoted), raw: true}
}

// placeholder is the one a source id has, or a new one of its kind.
func (m *ids) placeholder(s source) string {
	if p, ok := m.to[s]; ok {
		return p
	}
	m.count[s.kind]++
	p := s.kind + "-" + strconv.Itoa(m.count[s.kind])
	m.to[s] = p
	return p
}

// rewrite is a JSON document with its ids replaced. Every other byte is
// kept: member order, number spellings, escapes, duplicate names.
func (m *ids) rewrite(doc []byte) ([]byte, error) {
	var out []byte
	copied := 0
	err := script.EachID(doc, func(id script.ID) {
		out = append(out, doc[copied:id.Start]...)
		out, _ = jsontext.AppendQuote(out, m.placeholder(sourceOf(doc, id)))
		copied = id.End
	})
	if err != nil {
		return nil, err
	}
	return append(out, doc[copied:]...), nil
}
