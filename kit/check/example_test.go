package check_test

import (
	"fmt"
	"os"

	"github.com/agent-analysis/agent-analysis/kit/check"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// Judge a stream you hold, a script of JSON Lines here: the run is
// truncated, and the report says why, led by its rule and ending with
// the page to read.
func ExampleScript() {
	s, err := script.Parse([]byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}
{"type":"RUN_FINSHED","threadId":"t","runId":"r"}
`), "typo")
	if err != nil {
		fmt.Println(err)
		return
	}
	check.Print(os.Stdout, []check.Result{check.Script(s, false)}, nil, false)
	// Output:
	// FAIL typo: truncated: the stream ended while run "r" was active, with no terminal event; event 3 was RUN_FINSHED: AG-UI does not describe it (a misspelt RUN_FINISHED?) (https://docs.ag-ui.com/spec/1.0/basic/transports)
	// 0 passed, 1 failed (1 note at SHOULD or wording level: -v lists them)
}

// Tell what a file holds by its content, not its name: a curl capture,
// a script, or neither.
func ExampleSniff() {
	for _, head := range []string{
		"data: {\"type\":\"RUN_STARTED\"}\n\n",
		`[{"type":"RUN_STARTED"}]`,
		"# Notes\n",
	} {
		f := check.Sniff([]byte(head))
		fmt.Printf("%q\n", f.Name)
	}
	// Output:
	// "capture"
	// "script"
	// ""
}
