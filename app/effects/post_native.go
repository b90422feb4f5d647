//go:build !js

package effects

import (
	"bytes"
	"context"
	"errors"
	"net/http"
)

// post sends the request with net/http.
func (c Client) post(ctx context.Context, payload []byte) (response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Endpoint, bytes.NewReader(payload))
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if inner := errors.Unwrap(err); inner != nil {
			err = inner // drop the *url.Error's repeat of method and URL
		}
		return response{}, err
	}
	return response{status: resp.StatusCode, contentType: resp.Header.Get("Content-Type"), body: resp.Body}, nil
}

// yieldToPage does nothing here: only a browser page has one thread to share.
func yieldToPage() {}
