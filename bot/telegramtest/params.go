package telegramtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-telegram/bot/models"
)

// maxRequestBytes bounds a request body (Telegram takes photos up to 10 MB).
const maxRequestBytes = 50 << 20

// request is a decoded Bot API call: text fields and uploaded files.
type request struct {
	fields map[string]string
	files  map[string]upload
}

// replyMarkup is parseMarkup of the reply_markup field.
func (r *request) replyMarkup() (*models.InlineKeyboardMarkup, *apiError) {
	return parseMarkup(r.str("reply_markup"))
}

// entities is parseEntityField of field k (entities or caption_entities) against the
// visible text.
func (r *request) entities(k, visible string) ([]models.MessageEntity, *apiError) {
	return parseEntityField(r.str(k), r.str("parse_mode"), visible)
}

type upload struct {
	name string
	data []byte
}

func (r *request) has(k string) bool {
	_, ok := r.fields[k]
	return ok
}

func (r *request) str(k string) string { return r.fields[k] }

// int64 parses field k; missing or malformed fields read as 0, false.
func (r *request) int64(k string) (int64, bool) {
	v, ok := r.fields[k]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	return n, err == nil
}

func (r *request) int(k string) int {
	n, ok := r.int64(k)
	if !ok || n > 1<<31-1 || n < -1<<31 {
		return 0
	}
	return int(n)
}

func (r *request) bool(k string) bool {
	switch strings.ToLower(strings.TrimSpace(r.fields[k])) {
	case "true", "1":
		return true
	}
	return false
}

// summary renders the request for the call log. Without files it is the
// request's own fields, which nothing changes once the request is decoded.
func (r *request) summary() map[string]string {
	if len(r.files) == 0 {
		return r.fields
	}
	out := make(map[string]string, len(r.fields)+len(r.files))
	for k, v := range r.fields {
		out[k] = v
	}
	for k, f := range r.files {
		out[k] = fmt.Sprintf("<file %s, %d bytes>", f.name, len(f.data))
	}
	return out
}

// parseRequest decodes a request the way the Bot API accepts it: the query
// string, then a multipart/form-data, URL-encoded or JSON body. It never
// returns a nil request; a body it cannot decode gives a Bad Request error.
func parseRequest(r *http.Request) (*request, *apiError) {
	req := &request{fields: map[string]string{}, files: map[string]upload{}}
	for k, vs := range r.URL.Query() {
		if len(vs) > 0 {
			req.fields[k] = vs[0]
		}
	}
	if r.Body == nil {
		return req, nil
	}
	// The body is read once, into a buffer sized by Content-Length when given.
	var body bytes.Buffer
	if n := r.ContentLength; n > 0 && n <= maxRequestBytes {
		body.Grow(int(n) + bytes.MinRead) // ReadFrom wants MinRead bytes free to see the end
	}
	if _, err := body.ReadFrom(io.LimitReader(r.Body, maxRequestBytes+1)); err != nil {
		return req, badRequest("can't read request body")
	}
	if body.Len() > maxRequestBytes {
		return req, &apiError{code: http.StatusRequestEntityTooLarge, desc: "Request Entity Too Large"}
	}
	if perr := decodeBody(req, r.Header.Get("Content-Type"), body.Bytes()); perr != nil {
		return req, perr
	}
	return req, nil
}

// decodeBody adds the fields of body, of the given content type, to req.
func decodeBody(req *request, contentType string, body []byte) *apiError {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt = ""
	}
	switch mt {
	case "multipart/form-data":
		mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		for {
			p, err := mr.NextPart()
			if err == io.EOF { // the end; a truncated body ends with a wrapped EOF, an error
				return nil
			}
			if err != nil {
				return badRequest("can't parse multipart body: %v", err)
			}
			data, err := io.ReadAll(p)
			if err != nil {
				return badRequest("can't parse multipart body: %v", err)
			}
			name := p.FormName()
			if name == "" {
				continue
			}
			if p.FileName() != "" {
				req.files[name] = upload{name: p.FileName(), data: data}
			} else {
				req.fields[name] = string(data)
			}
		}
	case "application/json":
		return decodeJSONBody(req.fields, body)
	default: // application/x-www-form-urlencoded, or anything else: try it as a form
		vals, err := url.ParseQuery(string(body))
		if err != nil {
			return badRequest("can't parse request body")
		}
		for k, vs := range vals {
			if len(vs) > 0 {
				req.fields[k] = vs[0]
			}
		}
	}
	return nil
}

// decodeJSONBody adds the fields of a JSON object body to fields: a string field by its
// value, null as "", any other (a number, a reply_markup object) by its JSON text, which
// the method decodes when it needs it. Of repeated keys the last counts.
func decodeJSONBody(fields map[string]string, body []byte) *apiError {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil { // null: no fields
		return badRequest("can't parse JSON encoded request body")
	}
	for k, raw := range obj {
		switch raw[0] {
		case '"':
			var s string
			if json.Unmarshal(raw, &s) != nil { // valid JSON already: cannot fail
				return badRequest("can't parse JSON encoded request body")
			}
			fields[k] = s
		case 'n':
			fields[k] = "" // null, as encoding/json reads it into a string
		default:
			fields[k] = string(raw)
		}
	}
	return nil
}
