package page

import (
	"reflect"
	"testing"
)

func TestToolCallsArePairedWithTheirResults(t *testing.T) {
	said, err := Conversation([]byte(`[
		{"id":"u1","role":"user","content":"Is the API slow?"},
		{"id":"r1","role":"reasoning","content":"Check the p95."},
		{"id":"a1","role":"assistant","content":"Rolling back.","toolCalls":[
			{"id":"c1","type":"function","function":{"name":"rollback","arguments":"{\"service\":\"api\"}"}},
			{"id":"c2","type":"function","function":{"name":"notify","arguments":"not json"}}]},
		{"id":"t1","role":"tool","toolCallId":"c1","content":"{\"ok\":true}"},
		{"id":"t9","role":"tool","toolCallId":"c9","content":"orphan"},
		{"id":"u2","role":"user","content":[{"type":"text","text":"thanks"},{"type":"text","text":"!"}]},
		{"id":"u3","role":"user","content":[{"type":"binary","mimeType":"image/png","data":"AA=="}]}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Said{
		{ID: "u1", Role: "user", Text: "Is the API slow?"},
		{ID: "r1", Role: "reasoning", Text: "Check the p95."},
		{ID: "a1", Role: "assistant", Text: "Rolling back.", Calls: []Call{
			{ID: "c1", Name: "rollback", Arguments: "{\n  \"service\": \"api\"\n}", Answered: true, Result: "{\n  \"ok\": true\n}", ResultID: "t1"},
			{ID: "c2", Name: "notify", Arguments: "not json"},
		}},
		{ID: "t9", Role: "tool", Name: "answers tool call c9", Text: "orphan"},
		{ID: "u2", Role: "user", Text: "thanks\n!"},
		{ID: "u3", Role: "user", Text: "[\n  {\n    \"type\": \"binary\",\n    \"mimeType\": \"image/png\",\n    \"data\": \"AA==\"\n  }\n]"},
	}
	if !reflect.DeepEqual(said, want) {
		t.Errorf("got  %#v\nwant %#v", said, want)
	}
	if _, err := Conversation([]byte(`{}`)); err == nil {
		t.Error("an object read as messages")
	}
}
