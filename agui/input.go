package agui

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// Input is the RunAgentInput a run starts from (basic/run-input), checked
// against the schema: ReadInput makes one. The zero Input is a run whose request this consumer did not
// make: any thread and run id are accepted, and the state starts as {}.
type Input struct {
	ThreadID string // "" when unknown
	RunID    string // the requested run's id; "" when unknown
	// members are the checked input's, each as its JSON within a copy of
	// the input that nothing else holds; nil for the zero Input. A member
	// is decoded when asked for: a server reading an input before each
	// stream needs four small ones, not the conversation's tree.
	members []member
	answers []Answer // the resume list, read once (Answers); nil when none
}

// ReadInput reads a RunAgentInput as a consumer about to send it, or a
// producer receiving it, must (basic/processing, "Outgoing material"): a
// legacy binary content part is upgraded first, a malformed known field
// is an error, and unrecognised material is removed with a warning.
func ReadInput(data []byte) (Input, []Warning, error) {
	data = bytes.Clone(data) // the members stand in it, whatever the caller does with data next
	members, err := readTop(data)
	if err != nil || deeperThan(data, jsonpatch.MaxDepth) {
		// Not JSON, too deep, or not an object: Decode says which.
		if _, err := jsonpatch.Decode(data); err != nil {
			return Input{}, nil, &InputError{Reason: "the run input is " + err.Error()}
		}
		return Input{}, nil, &InputError{Reason: "the run input must be a JSON object"}
	}
	if upgraded, ok := upgradeInputParts(data, members); ok {
		data = upgraded
		members, _ = readTop(data, checked...) // read whole just now
	}
	var c checker
	if gone, err := c.object(members, runAgentInput, ""); err != nil || gone != "" {
		if m, ok := err.(*malformed); ok {
			return Input{}, nil, &InputError{Field: strings.TrimPrefix(m.path, "/"), Reason: m.reason}
		}
		return Input{}, nil, &InputError{Reason: "the run input is unrecognised: " + gone}
	}
	var warnings []Warning
	for _, r := range c.removals {
		warnings = append(warnings, Warning{Index: -1, Rule: UnknownMember, Text: fmt.Sprintf("removed %s from the run input: %s", r.path, r.reason)})
	}
	if len(c.removals) > 0 {
		members, _ = readTop(without(data, c.removals), checked...)
	}
	in := Input{members: members}
	in.ThreadID = stringOf(in.raw("threadId")) // the schema made both strings, or left them out
	in.RunID = stringOf(in.raw("runId"))
	in.answers = in.readAnswers()
	return in, warnings, nil
}

// upgradeInputParts is the input with its legacy binary content parts
// upgraded (upgradeBinaryParts), when it has any. Only messages that may
// hold one (the word, or an escape that could spell it) are decoded.
func upgradeInputParts(data []byte, members []member) ([]byte, bool) {
	for _, m := range members {
		if m.name != "messages" || !bytes.Contains(m.raw, []byte("binary")) && !bytes.Contains(m.raw, []byte(`\u`)) {
			continue
		}
		whole, err := jsonpatch.Decode(data)
		if err != nil {
			return nil, false
		}
		if upgraded := upgradeBinaryParts(whole); upgraded != whole {
			return jsonpatch.Encode(upgraded), true
		}
	}
	return nil, false
}

// InputError is a run input that cannot be sent or served: the member at
// fault (a JSON Pointer without its leading slash, "" for the whole input)
// and why.
type InputError struct {
	Field  string
	Reason string
}

// Error is the member at fault and why.
func (e *InputError) Error() string {
	if e.Field == "" {
		return e.Reason
	}
	return e.Field + ": " + e.Reason
}

// raw is a member's JSON; nil when the input has no such member.
func (in Input) raw(name string) []byte {
	for _, m := range in.members {
		if m.name == name {
			return m.raw
		}
	}
	return nil
}

// get is a member, decoded; nil when absent.
func (in Input) get(name string) jsonpatch.Value {
	raw := in.raw(name)
	if raw == nil {
		return nil
	}
	v, _ := jsonpatch.Decode(raw) // read and checked whole already
	return v
}

// object is the whole input, decoded.
func (in Input) object() *jsonpatch.Object {
	names, values := make([]string, len(in.members)), make([]jsonpatch.Value, len(in.members))
	for i, m := range in.members {
		names[i] = m.name
		values[i], _ = jsonpatch.Decode(m.raw)
	}
	return jsonpatch.NewObject(names, values)
}

// State is the state the run starts from, as JSON: {} when the input
// carries none.
func (in Input) State() []byte {
	if raw := in.raw("state"); raw != nil {
		return slices.Clone(raw)
	}
	return []byte("{}")
}

// messages are the conversation the input carries.
func (in Input) messages() []jsonpatch.Value {
	if list, ok := in.get("messages").(*jsonpatch.Array); ok {
		return list.Items()
	}
	return nil
}

// ProtocolVersion is what the input declares; "" when it declares none.
func (in Input) ProtocolVersion() string { return stringOf(in.raw("protocolVersion")) }

// ForwardedProps is the application's own channel, as JSON; nil when absent.
func (in Input) ForwardedProps() jsonpatch.Value { return in.get("forwardedProps") }

// ForwardedProp is one member of forwardedProps, decoded without the rest
// of it: a server reading one setting from the application's channel on
// every request needs that member, not the channel's tree. ok is false
// when forwardedProps is absent (the schema allows no null) or an object
// without the member; err when it is something other than an object.
func (in Input) ForwardedProp(name string) (v jsonpatch.Value, ok bool, err error) {
	raw := in.raw("forwardedProps")
	switch {
	case raw == nil:
		return nil, false, nil
	case raw[0] != '{':
		return nil, false, errors.New("forwardedProps is not an object")
	}
	if raw = memberOf(raw, name); raw == nil { // read whole already
		return nil, false, nil
	}
	if raw[0] == '"' {
		return stringOf(raw), true, nil // the usual setting, without a decoder's setup
	}
	v, _ = jsonpatch.Decode(raw)
	return v, true, nil
}

// Request is the RunAgentInput to send to a producer of version peer (""
// for a current one), declaring Current: see RequestAs.
func (in Input) Request(peer string) ([]byte, []Warning, error) { return in.RequestAs(Current, peer) }

// RequestAs is the RunAgentInput to send to a producer of version peer (""
// for a current one) by a consumer speaking version speak: activity
// messages stripped, as run-input requires; protocolVersion declared, or
// left out for a peer from before the field (before 1.0); content
// flattened to text for a peer from before content parts, with a warning
// naming what that loses.
func (in Input) RequestAs(speak Version, peer string) ([]byte, []Warning, error) {
	if in.members == nil {
		return nil, nil, fmt.Errorf("no run input")
	}
	old, known := ParseVersion(peer)
	var warnings []Warning
	names, values := []string(nil), []jsonpatch.Value(nil)
	for _, m := range in.members {
		name := m.name
		v, _ := jsonpatch.Decode(m.raw)
		switch name {
		case "protocolVersion":
			continue // declared below
		case "messages":
			v, warnings = outgoingMessages(v.(*jsonpatch.Array), known && old.Before(contentParts))
		}
		names, values = append(names, name), append(values, v)
	}
	if !known || !old.Before(V1_0) {
		names, values = append(names, "protocolVersion"), append(values, speak.String())
	}
	return jsonpatch.Encode(jsonpatch.NewObject(names, values)), warnings, nil
}

// contentParts is the first version whose peers take content parts.
const contentParts Version = 40 // 0.0.40

// outgoingMessages strips activity messages, and flattens content parts to
// their text for a peer that predates them.
func outgoingMessages(list *jsonpatch.Array, flatten bool) (*jsonpatch.Array, []Warning) {
	var warnings []Warning
	var out []jsonpatch.Value
	for i, m := range list.Items() {
		msg := m.(*jsonpatch.Object)
		if role, _ := msg.Get("role"); role == "activity" {
			continue
		}
		if content, ok := msg.Get("content"); ok && flatten {
			if parts, ok := content.(*jsonpatch.Array); ok {
				text, dropped := flattenParts(parts)
				if len(dropped) > 0 {
					warnings = append(warnings, Warning{Index: -1, Rule: LossyDowngrade, Text: fmt.Sprintf(
						"messages/%d: flattening content for a peer from before content parts DROPS non-text parts (%s); upgrade the peer to 1.0 to keep them",
						i, strings.Join(dropped, ", "))})
				}
				msg = set(msg, "content", text)
			}
		}
		out = append(out, msg)
	}
	return jsonpatch.NewArray(out), warnings
}

// flattenParts is a list of parts as its text parts concatenated in order
// (events/tool-calls), and the kinds of the parts that could not come.
func flattenParts(parts *jsonpatch.Array) (string, []string) {
	var b strings.Builder
	var dropped []string
	for _, p := range parts.Items() {
		part := p.(*jsonpatch.Object)
		kind, _ := part.Get("type")
		if kind == "text" {
			t, _ := part.Get("text")
			b.WriteString(t.(string))
			continue
		}
		dropped = append(dropped, fmt.Sprint(kind))
	}
	return b.String(), dropped
}

// set returns o with a member set, in place or at the end.
func set(o *jsonpatch.Object, name string, v jsonpatch.Value) *jsonpatch.Object {
	names, values := []string(nil), []jsonpatch.Value(nil)
	found := false
	for _, n := range o.Names() {
		w, _ := o.Get(n)
		if n == name {
			w, found = v, true
		}
		names, values = append(names, n), append(values, w)
	}
	if !found {
		names, values = append(names, name), append(values, v)
	}
	return jsonpatch.NewObject(names, values)
}
