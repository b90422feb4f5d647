package script

import (
	"strings"
	"testing"
)

// EachID finds the ids of the table and nothing else: at an event's top
// level, in RUN_STARTED's input, in messages, outcomes and resumes; never
// in application data, nor under a member that only looks like a path.
func TestEachIDFindsTheTablesIDs(t *testing.T) {
	doc := `{"type":"RUN_STARTED","threadId":"T","runId":"R","parentRunId":"P",` +
		`"input":{"threadId":"T","runId":"R","messages":[{"id":"M","toolCalls":[{"id":"C"}]}]},` +
		`"outcome":{"pendingToolCallIds":["C"],"interrupts":[{"id":"I"}]},"resume":[{"interruptId":"I"}],` +
		`"state":{"runId":"no","messages":[{"id":"no"}]},"messages":{"*":{"id":"no"}},"value":{"toolCallId":"no"}}`
	var got []string
	err := EachID([]byte(doc), func(id ID) {
		got = append(got, id.Kind+"="+doc[id.Start:id.End]+"@"+id.Name)
	})
	want := `thread="T"@threadId run="R"@runId run="P"@parentRunId thread="T"@threadId run="R"@runId msg="M"@id call="C"@id ` +
		`call="C"@ interrupt="I"@id interrupt="I"@interruptId`
	if err != nil || strings.Join(got, " ") != want {
		t.Errorf("%v\n got %s\nwant %s", err, strings.Join(got, " "), want)
	}
	if err := EachID([]byte(`{"runId":"R"} {`), func(ID) {}); err == nil || !strings.HasPrefix(err.Error(), "not JSON: ") {
		t.Errorf("%v", err)
	}
}
