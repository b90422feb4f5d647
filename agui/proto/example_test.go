package proto_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/agent-analysis/agent-analysis/agui/proto"
)

// A binary stream read as sse.Reader reads SSE: each Next is one event's
// JSON. An event of a type this schema does not know is skipped, as the
// official client skips it.
func ExampleReader() {
	var body []byte
	for _, event := range []string{
		`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`,
		`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/services/0/latency","value":145}]}`,
		`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`,
	} {
		body, _ = proto.AppendFrame(body, []byte(event))
	}
	stream := proto.NewReader(bytes.NewReader(body), proto.MaxFrameBytes)
	for {
		data, err := stream.Next()
		if err == io.EOF {
			break
		} else if errors.Is(err, proto.ErrUnknownEvent) {
			continue
		} else if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s\n", data)
	}
	// Output:
	// {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}
	// {"type":"STATE_DELTA","delta":[{"op":"replace","path":"/services/0/latency","value":145}]}
	// {"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}
}

// Encoding an event: its bytes, and what the binary schema cannot carry.
func ExampleEncode() {
	msg, err := proto.Encode([]byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi"}`))
	fmt.Printf("% x %v\n", msg, err)

	_, err = proto.Encode([]byte(`{"type":"STATE_SNAPSHOT","snapshot":{"requests":9007199254740993}}`))
	fmt.Println(err)
	// Output:
	// 12 0c 0a 02 08 01 12 02 6d 31 1a 02 48 69 <nil>
	// proto: cannot carry /snapshot/requests: 9007199254740993 does not survive a double: it would read back as 9007199254740992
}

// Telling a binary capture from text by its first bytes.
func ExampleIsBinary() {
	frame, _ := proto.AppendFrame(nil, []byte(`{"type":"RUN_ERROR","message":"boom"}`))
	fmt.Println(proto.IsBinary(frame), proto.IsBinary([]byte("data: {}\n\n")))
	// Output: true false
}
