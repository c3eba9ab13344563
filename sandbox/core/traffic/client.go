package traffic

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// BaseURL normalises what a person types for a sandbox's address:
// "127.0.0.1:8080", "localhost:8080/" and "http://127.0.0.1:8080" all
// become "http://host:port".
func BaseURL(addr string) (string, error) {
	s := strings.TrimSpace(addr)
	if s == "" {
		return "", fmt.Errorf("empty address")
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("%q is not a sandbox address; give host:port or http://host:port", addr)
	}
	return strings.TrimRight(u.Scheme+"://"+u.Host+u.Path, "/"), nil
}

// StreamMessage is one decoded message of the live stream: exactly one
// field is set.
type StreamMessage struct {
	Info    *Info
	Event   *Event
	Dropped *int64 // how many events the server dropped for this reader so far
}

// maxMessage bounds one stream message: two capped bodies, base64, and
// headers fit with room to spare.
const maxMessage = 8 << 20

// Follow reads the live traffic stream of the sandbox at baseURL, calling
// fn for each message, until ctx ends, the server closes the stream or
// the connection fails. since resumes after an event seq (0: the whole
// retained history first). It returns the last event seq seen, for the
// next call after a reconnect.
func Follow(ctx context.Context, c *http.Client, baseURL string, since int64, fn func(StreamMessage)) (int64, error) {
	if c == nil {
		c = http.DefaultClient
	}
	u := baseURL + HistoryPath + "?follow=1"
	if since > 0 {
		u += "&since=" + strconv.FormatInt(since, 10)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return since, err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.Do(req)
	if err != nil {
		return since, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return since, fmt.Errorf("GET %s: %s: %s", HistoryPath, resp.Status, bytes.TrimSpace(body))
	}
	last := since
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), maxMessage)
	var name string
	var data []byte
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if len(data) > 0 {
				msg, seq, err := decodeMessage(name, data)
				if err != nil {
					return last, err
				}
				if seq > last {
					last = seq
				}
				if msg != nil {
					fn(*msg)
				}
			}
			name, data = "", data[:0]
		case line[0] == ':':
		case bytes.HasPrefix(line, []byte("event:")):
			name = strings.TrimSpace(string(line[len("event:"):]))
		case bytes.HasPrefix(line, []byte("data:")):
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimPrefix(line[len("data:"):], []byte(" "))...)
		}
	}
	if err := sc.Err(); err != nil && ctx.Err() == nil {
		return last, err
	}
	return last, ctx.Err()
}

func decodeMessage(name string, data []byte) (*StreamMessage, int64, error) {
	switch name {
	case StreamInfo:
		var info Info
		if err := json.Unmarshal(data, &info); err != nil {
			return nil, 0, fmt.Errorf("stream info: %w", err)
		}
		return &StreamMessage{Info: &info}, 0, nil
	case StreamDropped:
		var d Dropped
		if err := json.Unmarshal(data, &d); err != nil {
			return nil, 0, fmt.Errorf("stream dropped: %w", err)
		}
		return &StreamMessage{Dropped: &d.Dropped}, 0, nil
	case TypeCall, TypeDelivery, TypeQueued, TypeClock:
		var ev Event
		if err := json.Unmarshal(data, &ev); err != nil {
			return nil, 0, fmt.Errorf("stream %s: %w", name, err)
		}
		return &StreamMessage{Event: &ev}, ev.Seq, nil
	}
	return nil, 0, nil // a message type from a newer sandbox: skip it
}
