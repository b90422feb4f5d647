package agui

import (
	"slices"

	"github.com/go-json-experiment/json/jsontext"
)

// Type is an event's discriminator, its "type".
type Type string

// The 31 event types of AG-UI 1.x (basic: "Thirty-one event types, in
// eight families").
const (
	RunStarted              Type = "RUN_STARTED"
	RunFinished             Type = "RUN_FINISHED"
	RunError                Type = "RUN_ERROR"
	StepStarted             Type = "STEP_STARTED"
	StepFinished            Type = "STEP_FINISHED"
	TextMessageStart        Type = "TEXT_MESSAGE_START"
	TextMessageContent      Type = "TEXT_MESSAGE_CONTENT"
	TextMessageEnd          Type = "TEXT_MESSAGE_END"
	TextMessageChunk        Type = "TEXT_MESSAGE_CHUNK"
	ToolCallStart           Type = "TOOL_CALL_START"
	ToolCallArgs            Type = "TOOL_CALL_ARGS"
	ToolCallEnd             Type = "TOOL_CALL_END"
	ToolCallChunk           Type = "TOOL_CALL_CHUNK"
	ToolCallResult          Type = "TOOL_CALL_RESULT"
	ReasoningStart          Type = "REASONING_START"
	ReasoningEnd            Type = "REASONING_END"
	ReasoningMessageStart   Type = "REASONING_MESSAGE_START"
	ReasoningMessageContent Type = "REASONING_MESSAGE_CONTENT"
	ReasoningMessageEnd     Type = "REASONING_MESSAGE_END"
	ReasoningMessageChunk   Type = "REASONING_MESSAGE_CHUNK"
	ReasoningEncryptedValue Type = "REASONING_ENCRYPTED_VALUE"
	StateSnapshot           Type = "STATE_SNAPSHOT"
	StateDelta              Type = "STATE_DELTA"
	MessagesSnapshot        Type = "MESSAGES_SNAPSHOT"
	ActivitySnapshot        Type = "ACTIVITY_SNAPSHOT"
	ActivityDelta           Type = "ACTIVITY_DELTA"
	SubagentStarted         Type = "SUBAGENT_STARTED"
	SubagentFinished        Type = "SUBAGENT_FINISHED"
	SubagentError           Type = "SUBAGENT_ERROR"
	Raw                     Type = "RAW"
	Custom                  Type = "CUSTOM"
)

// Known reports whether the protocol describes t.
func (t Type) Known() bool { _, ok := eventDefs[t]; return ok }

// Event is one event as a consumer delivers it to application code:
// checked against the schema, without the material the protocol does not
// describe, and, for a chunk, expanded into the events it stands for.
type Event struct {
	Type Type
	JSON []byte // the event as delivered; never modified

	members []member // its top-level members, as read
	dropped []int    // a delta's operations removed as unrecognised, by their index as sent
}

// member is one top-level member of an event.
type member struct {
	name string
	raw  []byte // its JSON value, within Event.JSON
}

// text returns a string member, "" when it is absent or not a string.
func (e *Event) text(name string) string {
	if m := e.member(name); m != nil {
		return stringOf(m.raw)
	}
	return ""
}

// has reports whether the event carries a member.
func (e *Event) has(name string) bool { return e.member(name) != nil }

// raw returns a member's JSON, nil when absent.
func (e *Event) raw(name string) []byte {
	if m := e.member(name); m != nil {
		return m.raw
	}
	return nil
}

func (e *Event) member(name string) *member {
	i := slices.IndexFunc(e.members, func(m member) bool { return m.name == name })
	if i < 0 {
		return nil
	}
	return &e.members[i]
}

// owner is the subagent invocation an event is attributed to; "" for the
// parent agent.
func (e *Event) owner() string { return e.text("subagentRunId") }

// quote is s as a JSON string.
func quote(s string) []byte {
	b, _ := jsontext.AppendQuote(nil, s) // invalid UTF-8 is replaced, never refused
	return b
}

// encodeEvent writes an event the engine makes itself: a translated or
// synthesized one.
func encodeEvent(t Type, members []member) []byte {
	b := append([]byte(`{"type":`), quote(string(t))...)
	for _, m := range members {
		b = append(b, ',')
		b = append(b, quote(m.name)...)
		b = append(b, ':')
		b = append(b, m.raw...)
	}
	return append(b, '}')
}

// made is an event the engine makes itself, delivered like any other.
func made(t Type, members ...member) Event { return newEvent(t, encodeEvent(t, members)) }

// newEvent reads a checked event's members.
func newEvent(t Type, data []byte) Event {
	members, _ := readTop(data)
	return Event{Type: t, JSON: data, members: members}
}

// stringMember is a member holding a string.
func stringMember(name, value string) member {
	return member{name: name, raw: quote(value)}
}
