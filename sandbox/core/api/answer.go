package api

import (
	"encoding/json"
	"fmt"
)

// AnswerError is an error envelope a sandbox answered, as a client of it
// (the CLI, certify) reads it.
type AnswerError struct {
	Status   int
	Code     string
	Instance string
	Message  string
}

func (e *AnswerError) Error() string { return e.Message }

// DecodeAnswer reads an answer of the sandbox: the envelope's data into
// out (when out is not nil), or an *AnswerError for an error envelope (a
// 4xx or 5xx, or errors without data). Bytes that are no envelope give an
// error that says so; what names the request is the caller's to add.
func DecodeAnswer(status int, raw []byte, out any) error {
	var env struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			ErrorCode string `json:"errorCode"`
			Message   string `json:"message"`
			Instance  string `json:"instance"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return fmt.Errorf("HTTP %d without the sandbox's envelope", status)
	}
	if status >= 400 || (len(env.Errors) > 0 && (len(env.Data) == 0 || string(env.Data) == "null")) {
		e := &AnswerError{Status: status, Message: fmt.Sprintf("HTTP %d", status)}
		if len(env.Errors) > 0 {
			e.Code, e.Instance, e.Message = env.Errors[0].ErrorCode, env.Errors[0].Instance, env.Errors[0].Message
		}
		return e
	}
	if out == nil || len(env.Data) == 0 {
		return nil
	}
	return json.Unmarshal(env.Data, out)
}
