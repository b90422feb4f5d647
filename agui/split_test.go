package agui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/agui/internal/jsonscan"
)

// TestReadTopBeyondTheScan: an object the one pass gives up on is read by
// the decoder, whole and alike.
func TestReadTopBeyondTheScan(t *testing.T) {
	names := make([]string, jsonscan.MaxNames+1)
	for i := range names {
		names[i] = fmt.Sprintf(`"k%d":%d`, i, i)
	}
	for _, s := range []string{
		`{` + strings.Join(names, ",") + `}`,
		`{"\u0074ype":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r","note":"\ud83d\ude00"}`,
	} {
		if _, ok := split([]byte(s)); ok {
			t.Fatalf("split read %s: the case needs one it gives up on", s)
		}
		members, err := readTop([]byte(s))
		want, _ := decodeTop([]byte(s))
		if err != nil || len(members) != len(want) || len(members) < 3 {
			t.Fatalf("readTop(%s): %d members, %v", s, len(members), err)
		}
		for i := range members {
			if members[i].name != want[i].name || string(members[i].raw) != string(want[i].raw) {
				t.Errorf("%s: member %d is %q, want %q", s, i, members[i].name, want[i].name)
			}
		}
	}
}
