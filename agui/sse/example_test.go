package sse_test

import (
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/agent-analysis/agent-analysis/agui/sse"
)

// Each call to Next is one message's data: a keep-alive comment and the
// event field are skipped, CRLF ends a line as LF does, and two data
// lines join with LF.
func ExampleReader() {
	body := strings.NewReader(": keep-alive\n\n" +
		"event: agui\r\ndata: {\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\r\n\r\n" +
		"data: {\"type\":\"RUN_FINISHED\",\ndata: \"threadId\":\"t1\",\"runId\":\"r1\"}\n\n")
	stream := sse.NewReader(body, 1<<20)
	for {
		data, err := stream.Next()
		if err == io.EOF {
			break
		} else if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%q\n", data)
	}
	// Output:
	// "{\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}"
	// "{\"type\":\"RUN_FINISHED\",\n\"threadId\":\"t1\",\"runId\":\"r1\"}"
}
