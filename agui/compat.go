package agui

import (
	"fmt"
	"strings"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// The compatibility boundary (basic/versioning, "Retired shapes"): shapes
// 1.0 retired are translated before enforcement, which would otherwise
// drop them as unrecognised; and, for a peer known to be older, the
// downgrades 1.0 permits.

// retired are the 0.x THINKING_* events and their 1.0 replacements.
var retired = map[Type]Type{
	"THINKING_START":                ReasoningStart,
	"THINKING_END":                  ReasoningEnd,
	"THINKING_TEXT_MESSAGE_START":   ReasoningMessageStart,
	"THINKING_TEXT_MESSAGE_CONTENT": ReasoningMessageContent,
	"THINKING_TEXT_MESSAGE_END":     ReasoningMessageEnd,
}

// thinking tracks the ids given to translated THINKING_* events, which
// had none of their own.
type thinking struct {
	spans, messages int
	span, message   string // the open ones
}

// translate rewrites a retired THINKING_* event as its reasoning event.
// What the new shape cannot carry (a span's title) is lost, and the
// warning says so.
func (t *thinking) translate(old Type, members []member) ([]byte, string) {
	id := func(counter *int, open *string, prefix string) string {
		if *open == "" {
			*counter++
			*open = fmt.Sprintf("%s-%d", prefix, *counter)
		}
		return *open
	}
	var kept []member
	var lost []string
	for _, m := range members {
		switch m.name {
		case "type":
		case "timestamp", "rawEvent", "metadata":
			kept = append(kept, m)
		case "delta":
			if old == "THINKING_TEXT_MESSAGE_CONTENT" {
				kept = append(kept, m)
				continue
			}
			fallthrough
		default:
			lost = append(lost, m.name)
		}
	}
	var messageID string
	switch old {
	case "THINKING_START", "THINKING_END":
		messageID = id(&t.spans, &t.span, "thinking")
		if old == "THINKING_END" {
			t.span = ""
		}
	default:
		messageID = id(&t.messages, &t.message, "thinking-message")
		if old == "THINKING_TEXT_MESSAGE_END" {
			t.message = ""
		}
	}
	fieldsOut := []member{{name: "messageId", raw: quote(messageID)}}
	if old == "THINKING_TEXT_MESSAGE_START" {
		fieldsOut = append(fieldsOut, member{name: "role", raw: quote("reasoning")})
	}
	data := encodeEvent(retired[old], append(fieldsOut, kept...))
	text := fmt.Sprintf("translated the retired %s into %s", old, retired[old])
	if len(lost) > 0 {
		text += fmt.Sprintf(", losing %s, which 1.0 has no place for", strings.Join(lost, ", "))
	}
	return data, text + "; upgrade the producer to 1.0's reasoning events"
}

// subagentsFrom is the first version that knows subagents: a peer before it
// gets the stream without them (the 0.0.57 downgrade).
const subagentsFrom Version = 58 // 0.0.58

// upgradeBinaryParts turns the legacy "binary" content parts of messages
// into the typed media parts that replaced them, on every outgoing input
// whatever the peer: nothing of the part is lost.
func upgradeBinaryParts(v jsonpatch.Value) jsonpatch.Value {
	input := v.(*jsonpatch.Object)
	list, ok := input.Get("messages")
	messages, isList := list.(*jsonpatch.Array)
	if !ok || !isList {
		return v
	}
	changed := false
	out := make([]jsonpatch.Value, messages.Len())
	for i, m := range messages.Items() {
		out[i] = m
		msg, ok := m.(*jsonpatch.Object)
		if !ok {
			continue
		}
		content, _ := msg.Get("content")
		parts, ok := content.(*jsonpatch.Array)
		if !ok {
			continue
		}
		upgraded := make([]jsonpatch.Value, parts.Len())
		for j, p := range parts.Items() {
			upgraded[j] = p
			if part, ok := p.(*jsonpatch.Object); ok {
				if next, ok := upgradeBinary(part); ok {
					upgraded[j], changed = next, true
				}
			}
		}
		out[i] = set(msg, "content", jsonpatch.NewArray(upgraded))
	}
	if !changed {
		return v
	}
	return set(input, "messages", jsonpatch.NewArray(out))
}

// upgradeBinary maps {"type":"binary","mimeType","url"|"data"|"id"} to an
// image, audio, video or document part with the matching source.
func upgradeBinary(part *jsonpatch.Object) (*jsonpatch.Object, bool) {
	if kind, _ := part.Get("type"); kind != "binary" {
		return nil, false
	}
	mime, _ := part.Get("mimeType")
	mimeType, _ := mime.(string)
	var source *jsonpatch.Object
	for _, arm := range []struct{ from, to string }{{"url", "url"}, {"data", "data"}, {"id", "file"}} {
		if v, ok := part.Get(arm.from); ok {
			source = jsonpatch.NewObject([]string{"type", "value", "mimeType"}, []jsonpatch.Value{arm.to, v, mimeType})
			break
		}
	}
	if source == nil || mimeType == "" {
		return nil, false // left as it is: enforcement drops it, with a warning
	}
	kind := "document"
	for _, media := range []string{"image", "audio", "video"} {
		if strings.HasPrefix(mimeType, media+"/") {
			kind = media
		}
	}
	names, values := []string{"type", "source"}, []jsonpatch.Value{kind, source}
	if name, ok := part.Get("filename"); ok {
		names = append(names, "metadata")
		values = append(values, jsonpatch.NewObject([]string{"filename"}, []jsonpatch.Value{name}))
	}
	return jsonpatch.NewObject(names, values), true
}
