package page

import (
	"bytes"
	"encoding/json"
	"strings"
)

// The conversation as AG-UI writes its messages (docs.ag-ui.com/concepts/
// messages): any role, content as text or as parts, an assistant's tool
// calls, and the tool messages that answer them by toolCallId.

// message is one message as the protocol writes it; what the page does
// not show is not read.
type message struct {
	ID         string          `json:"id"`
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Name       string          `json:"name"`
	ToolCalls  []toolCall      `json:"toolCalls"`
	ToolCallID string          `json:"toolCallId"`
	Error      string          `json:"error"`
}

type toolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Said is one entry of the conversation as the page shows it.
type Said struct {
	ID    string
	Role  string
	Name  string
	Text  string
	Calls []Call // an assistant's tool calls, each with its result
}

// Call is a tool call with the tool message that answered it, if any.
type Call struct {
	ID        string
	Name      string
	Arguments string
	Answered  bool
	Result    string
	ResultID  string // the tool message's id
}

// Conversation reads the messages (a JSON array) and pairs each tool call
// with its result: a tool message that answers a call is shown under it,
// one that answers no call shows on its own.
func Conversation(data []byte) ([]Said, error) {
	var list []message
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, err
	}
	results := map[string]message{}
	for _, m := range list {
		if m.Role == "tool" && m.ToolCallID != "" {
			if _, ok := results[m.ToolCallID]; !ok {
				results[m.ToolCallID] = m
			}
		}
	}
	called := map[string]bool{}
	for _, m := range list {
		for _, c := range m.ToolCalls {
			called[c.ID] = true
		}
	}
	var out []Said
	for _, m := range list {
		if m.Role == "tool" && called[m.ToolCallID] && results[m.ToolCallID].ID == m.ID {
			continue // shown with its call
		}
		s := Said{ID: m.ID, Role: m.Role, Name: m.Name, Text: contentText(m.Content)}
		if m.Error != "" {
			s.Text = strings.TrimSpace(s.Text + "\n" + "error: " + m.Error)
		}
		if m.Role == "tool" && m.ToolCallID != "" {
			s.Name = "answers tool call " + m.ToolCallID
		}
		for _, c := range m.ToolCalls {
			call := Call{ID: c.ID, Name: c.Function.Name, Arguments: indent(c.Function.Arguments)}
			if r, ok := results[c.ID]; ok {
				call.Answered, call.Result, call.ResultID = true, indent(contentText(r.Content)), r.ID
			}
			s.Calls = append(s.Calls, call)
		}
		out = append(out, s)
	}
	return out, nil
}

// contentText is a message's content as text: a string as it is, the text
// of text parts, anything else as its JSON.
func contentText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var texts []string
		for _, p := range parts {
			if p.Type == "text" {
				texts = append(texts, p.Text)
			}
		}
		if len(texts) == len(parts) {
			return strings.Join(texts, "\n")
		}
	}
	return indent(string(raw))
}

// indent pretty-prints JSON text, and leaves anything else as it is.
func indent(s string) string {
	var b bytes.Buffer
	if json.Indent(&b, []byte(s), "", "  ") != nil {
		return s
	}
	return b.String()
}
