package agui

import (
	"fmt"
	"strings"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// Input is the RunAgentInput a run starts from (basic/run-input), checked
// against the schema: ReadInput makes one. The zero Input is a run whose request this consumer did not
// make: any thread and run id are accepted, and the state starts as {}.
type Input struct {
	ThreadID string // "" when unknown
	RunID    string // the requested run's id; "" when unknown
	value    *jsonpatch.Object
	answers  []Answer // the resume list, read once (Answers); nil when none
}

// ReadInput reads a RunAgentInput as a consumer about to send it, or a
// producer receiving it, must (basic/processing, "Outgoing material"): a
// legacy binary content part is upgraded first, a malformed known field
// is an error, and unrecognised material is removed with a warning.
func ReadInput(data []byte) (Input, []Warning, error) {
	object, raw, ok := jsonpatch.DecodeObject(data)
	if !ok { // not JSON, or not an object: Decode says which
		if _, err := jsonpatch.Decode(data); err != nil {
			return Input{}, nil, &InputError{Reason: "the run input is " + err.Error()}
		}
		return Input{}, nil, &InputError{Reason: "the run input must be a JSON object"}
	}
	var v jsonpatch.Value = object
	members := make([]member, len(raw))
	for i, name := range object.Names() {
		members[i] = member{name: name, raw: raw[i]}
	}
	if upgraded := upgradeBinaryParts(v); upgraded != v {
		v, data = upgraded, jsonpatch.Encode(upgraded)
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
		v, _ = jsonpatch.Decode(without(data, c.removals))
	}
	in := Input{value: v.(*jsonpatch.Object)}
	in.ThreadID, _ = in.get("threadId").(string)
	in.RunID, _ = in.get("runId").(string)
	in.answers = in.readAnswers()
	return in, warnings, nil
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

func (in Input) get(name string) jsonpatch.Value {
	if in.value == nil {
		return nil
	}
	v, _ := in.value.Get(name)
	return v
}

// State is the state the run starts from, as JSON: {} when the input
// carries none.
func (in Input) State() []byte {
	if v := in.get("state"); v != nil {
		return jsonpatch.Encode(v)
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
func (in Input) ProtocolVersion() string { s, _ := in.get("protocolVersion").(string); return s }

// ForwardedProps is the application's own channel, as JSON; nil when absent.
func (in Input) ForwardedProps() jsonpatch.Value { return in.get("forwardedProps") }

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
	if in.value == nil {
		return nil, nil, fmt.Errorf("no run input")
	}
	old, known := ParseVersion(peer)
	var warnings []Warning
	names, values := []string(nil), []jsonpatch.Value(nil)
	for _, name := range in.value.Names() {
		v, _ := in.value.Get(name)
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
