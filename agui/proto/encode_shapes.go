package proto

import (
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// The messages whose JSON is not one member per field, encoded so that
// Decode rebuilds the same JSON.

// encodeRunOutcome flattens RUN_FINISHED's outcome into outcome (5),
// interrupts (6) and pending_tool_call_ids (8).
func encodeRunOutcome(b []byte, obj *node) ([]byte, error) {
	m := events[eventArms["RUN_FINISHED"]]
	return encodeOutcome(b, obj, 5, func(b []byte, holder *node, ptr string, typ string) ([]byte, error) {
		interrupts, ids := holder.get("interrupts"), holder.get("pendingToolCallIds")
		var err error
		if interrupts == nil && typ == "interrupt" {
			return b, cannot(ptr+"/interrupts", "absent, but an interrupt outcome always carries them: it would read back as []")
		}
		if interrupts != nil {
			f := *m.byNum[6]
			f.omitEmpty = typ != "interrupt" // elsewhere [] reads back as absent
			if b, err = encodeList(b, &f, interrupts, ptr+"/interrupts"); err != nil {
				return b, err
			}
		}
		if ids != nil {
			f := *m.byNum[8]
			f.omitEmpty = true
			return encodeList(b, &f, ids, ptr+"/pendingToolCallIds")
		}
		return b, nil
	}, "interrupts", "pendingToolCallIds")
}

// encodeSubagentOutcome flattens SUBAGENT_FINISHED's outcome into outcome
// (4) and interrupt_ids (5).
func encodeSubagentOutcome(b []byte, obj *node) ([]byte, error) {
	m := events[eventArms["SUBAGENT_FINISHED"]]
	return encodeOutcome(b, obj, 4, func(b []byte, holder *node, ptr string, _ string) ([]byte, error) {
		ids := holder.get("interruptIds")
		if ids == nil {
			return b, nil
		}
		f := *m.byNum[5]
		f.omitEmpty = true
		return encodeList(b, &f, ids, ptr+"/interruptIds")
	}, "interruptIds")
}

// encodeOutcome writes an outcome object's type in field num, and what
// rides with it by rides; without an outcome, what rides at the top of
// the event (as Decode gives it for an outcome-less message).
func encodeOutcome(b []byte, obj *node, num protowire.Number,
	rides func(b []byte, holder *node, ptr, typ string) ([]byte, error), riders ...string) ([]byte, error) {
	outcome := obj.get("outcome")
	if outcome == nil {
		return rides(b, obj, "", "")
	}
	if outcome.kind != '{' {
		return b, cannot("/outcome", outcome.what()+", where the binary schema carries an object")
	}
	for _, r := range riders {
		if obj.get(r) != nil {
			return b, cannot("/"+r, "beside an outcome, which carries it inside: it would read back there")
		}
	}
	typ := outcome.get("type")
	switch {
	case typ == nil || typ.kind != '"':
		return b, cannot("/outcome/type", "absent or not a string, where the binary schema carries a string")
	case typ.text == "":
		return b, cannot("/outcome/type", `"", which the binary schema cannot tell from no outcome`)
	}
	for _, mb := range outcome.members {
		if mb.name != "type" && !contains(riders, mb.name) {
			return b, cannot("/outcome/"+jsonpatch.EscapeToken(mb.name), "a member the binary schema has no field for")
		}
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	b = protowire.AppendString(b, typ.text)
	return rides(b, outcome, "/outcome", typ.text)
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// encodeToolResultContent: a string in content (5), parts in
// content_parts (7).
func encodeToolResultContent(b []byte, obj *node) ([]byte, error) {
	m := events[eventArms["TOOL_CALL_RESULT"]]
	content := obj.get("content")
	switch {
	case content == nil:
		return b, cannot("/content", "absent, but the binary schema always carries it: it would read back as []")
	case content.kind == '"':
		return encodeField(b, m.byNum[5], content, "/content")
	case content.kind == '[':
		return encodeList(b, m.byNum[7], content, "/content")
	}
	return b, cannot("/content", content.what()+", where the binary schema carries a string or an array")
}

// encodeMessageContent puts a Message's content where its role has it:
// parts for user and tool, the object for activity, a string for the
// others; for a role the schema does not know, the field its kind fits.
func encodeMessageContent(b []byte, m *message, obj *node, ptr string) ([]byte, error) {
	role, content := obj.get("role"), obj.get("content")
	if role == nil || role.kind != '"' {
		return b, nil // encodeFields refused it
	}
	at := ptr + "/content"
	r := role.text
	known := knownRoles[r]
	if content == nil {
		if partsRoles[r] {
			return b, cannot(at, "absent, but a "+r+" message always carries it: it would read back as []")
		}
		return b, nil
	}
	switch {
	case content.kind == '"' && r != "activity":
		return encodeField(b, m.byNum[3], content, at)
	case content.kind == '[' && (partsRoles[r] || !known):
		if len(content.items) == 0 && !known {
			// For a role it does not know, Decode takes the parts for the
			// content only when there are some: one with no arm, which
			// reads back as none, says so.
			b = protowire.AppendTag(b, 8, protowire.BytesType)
			return protowire.AppendVarint(b, 0), nil
		}
		return encodeList(b, m.byNum[8], content, at)
	case content.kind == '{' && (r == "activity" || !known):
		return encodeField(b, m.byNum[13], content, at)
	}
	return b, cannot(at, content.what()+", which a "+strconv.Quote(r)+" message cannot carry in the binary schema")
}

// encodeOneof writes a content part or a source: its "type" names the arm,
// its other members are the arm's fields.
func encodeOneof(b []byte, m *message, obj *node, ptr string) ([]byte, error) {
	t := obj.get("type")
	if t == nil || t.kind != '"' {
		return b, cannot(ptr+"/type", "absent or not a string: the "+m.name+" oneof's arm is its type")
	}
	arm := m.member(t.text)
	if arm == nil {
		return b, cannot(ptr+"/type", strconv.Quote(t.text)+", which no arm of "+m.name+" carries")
	}
	return appendMessage(b, arm.num, func(b []byte) ([]byte, error) {
		b, err := encodeFields(b, arm.msg, obj, ptr)
		if err != nil {
			return b, err
		}
		for _, mb := range obj.members {
			if mb.name != "type" && arm.msg.member(mb.name) == nil {
				return b, cannot(ptr+"/"+jsonpatch.EscapeToken(mb.name), "a member the binary schema has no field for")
			}
		}
		return b, nil
	})
}
