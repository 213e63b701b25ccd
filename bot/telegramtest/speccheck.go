package telegramtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// checkCall checks a request of method against the Bot API's description (see spec.go) and
// returns Telegram's kind of error for the first thing it finds wrong:
//
//   - a parameter the method does not have (Telegram ignores it; the fake refuses it, as a
//     misspelt parameter is a bug), or an uploaded file that is neither a parameter of type
//     InputFile nor attached by "attach://<name>" in another parameter;
//   - a required parameter that is missing (an empty one is left to the method, which
//     answers as Telegram does, "message text is empty" and the like);
//   - a value that is not of the parameter's type: Integer, Float, Boolean ("true" or
//     "false"; Telegram reads anything else as false), an uploaded InputFile, or JSON of an
//     object type or an array (an empty value of a type other than String is refused, where
//     Telegram would take it for none), whose every
//     member is checked in turn: no field its type lacks, every required field, the right
//     types, a discriminating field ("type") with its one value, the lengths the description
//     gives ("1-64 bytes", "1-256 characters"), and the rules it states of a type's fields
//     (an inline keyboard button has exactly one action).
//
// A method the description does not know passes: the server answers 404 for it anyway.
func checkCall(method string, r *request) *apiError {
	m := theSpec.methods[strings.ToLower(method)]
	if m == nil {
		return nil
	}
	c := checker{req: r}
	if err := c.unknownParams(m); err != nil {
		return err
	}
	for _, p := range m.order {
		_, hasFile := r.files[p.Name]
		if p.Required && !r.has(p.Name) && !hasFile {
			return badRequest("parameter %q is required", p.Name)
		}
	}
	for _, p := range m.order {
		if raw, ok := r.fields[p.Name]; ok {
			if err := c.param(m, p, raw); err != nil {
				return err
			}
		}
	}
	return nil
}

// checker checks the parameters of one request.
type checker struct {
	req *request
}

// unknownParams refuses the first (by name) field or file of the request that is no
// parameter of m, and an uploaded file where m's parameter of its name takes none.
func (c checker) unknownParams(m *methodSpec) *apiError {
	bad, found := "", false
	note := func(k string) {
		if !found || k < bad {
			bad, found = k, true
		}
	}
	for k := range c.req.fields {
		if m.params[k] == nil {
			note(k)
		}
	}
	var notFile *fieldSpec // the first (by name) parameter given a file it does not take
	for k := range c.req.files {
		p := m.params[k]
		switch {
		case p == nil && c.attached(k):
		case p == nil:
			note(k)
		case !takes(p.types, primInputFile) && (notFile == nil || k < notFile.Name):
			notFile = p
		}
	}
	switch {
	case found:
		return badRequest("unknown parameter %q of method %s", bad, m.name)
	case notFile != nil:
		return badRequest("parameter %q must be of type %s, not a file", notFile.Name, typeList(notFile.types))
	}
	return nil
}

// attached reports whether a parameter of the request attaches the upload name
// ("attach://name", in an InputMedia say).
func (c checker) attached(name string) bool {
	ref := "attach://" + name
	for _, v := range c.req.fields {
		if strings.Contains(v, ref) {
			return true
		}
	}
	return false
}

// takes reports whether one of types is the primitive k.
func takes(types []typeRef, k primKind) bool {
	for _, t := range types {
		if t.arrays == 0 && t.prim == k {
			return true
		}
	}
	return false
}

// typeList spells types as the description does: "Integer or String".
func typeList(types []typeRef) string {
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = t.String()
	}
	return strings.Join(names, " or ")
}

// param checks the text raw of parameter p of method m: a plain value against p's plain
// types, and JSON against its object and array types.
func (c checker) param(m *methodSpec, p *fieldSpec, raw string) *apiError {
	jsonTypes := false
	for _, t := range p.types {
		if t.arrays > 0 || t.obj != nil {
			jsonTypes = true
			continue
		}
		if c.plain(p, t.prim, raw) {
			if t.prim == primString {
				return lengthCheck(m.name, &p.specField, raw, true)
			}
			return nil
		}
	}
	if !jsonTypes {
		return badRequest("parameter %q must be of type %s", p.Name, typeList(p.types))
	}
	v, err := decodeValue(raw)
	if err != nil {
		return badRequest("can't parse %s JSON object", paramLabel(p.Name))
	}
	return c.value(v, p.types, spot{param: p.Name})
}

// plain reports whether raw, the text of parameter p, is a k.
func (c checker) plain(p *fieldSpec, k primKind, raw string) bool {
	switch k {
	case primString:
		return true
	case primInteger:
		_, err := strconv.ParseInt(raw, 10, 64)
		return err == nil
	case primFloat:
		f, err := strconv.ParseFloat(raw, 64)
		return err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
	case primBoolean:
		return raw == "true" || raw == "false"
	case primInputFile:
		_, up := c.req.files[p.Name]
		name, ok := strings.CutPrefix(raw, "attach://")
		_, att := c.req.files[name]
		return up && raw == "" || ok && att
	}
	return false
}

// decodeValue decodes one JSON value, keeping numbers as their text.
func decodeValue(raw string) (any, error) {
	d := json.NewDecoder(strings.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.InputOffset() != int64(len(strings.TrimRight(raw, " \t\r\n"))) {
		return nil, errors.New("text after the JSON value")
	}
	return v, nil
}

// spot is where a value lies, for errors: a field of an object type, or a parameter.
type spot struct {
	obj   *objSpec // nil for a parameter
	field string
	param string
}

// typeErr is the error of a value at s that is none of types.
func (s spot) typeErr(types []typeRef) *apiError {
	if s.obj == nil {
		return badRequest("parameter %q must be of type %s", s.param, typeList(types))
	}
	return s.obj.fail("Field %q must be of type %s", s.field, typeList(types))
}

// fail is an error in an object of type o, as Telegram words one ("can't parse inline
// keyboard button: ...").
func (o *objSpec) fail(format string, a ...any) *apiError {
	return badRequest("can't parse %s: %s", typeLabel(o.name), fmt.Sprintf(format, a...))
}

// value checks the decoded JSON value v, at s, against the types it may have: it passes when
// one of them takes it; otherwise the error is that of the type v looks most like.
func (c checker) value(v any, types []typeRef, s spot) *apiError {
	if len(types) == 1 {
		return c.one(v, types[0], s)
	}
	var best *apiError
	bestRank := 0
	for _, t := range types {
		r := rank(v, t)
		if r == 0 {
			continue
		}
		err := c.as(v, t, s)
		if err == nil {
			return nil
		}
		if r > bestRank {
			best, bestRank = err, r
		}
	}
	if best == nil {
		return s.typeErr(types)
	}
	return best
}

// one is value for a value of the one type t.
func (c checker) one(v any, t typeRef, s spot) *apiError {
	if rank(v, t) == 0 {
		return s.typeErr([]typeRef{t})
	}
	return c.as(v, t, s)
}

// rank tells how much v looks like a t: 0 not at all (another kind of JSON value), 1 the
// same kind but for an object whose discriminating field ("type") has not t's value; for
// an object, more when that field has t's value, and one more when every field t requires is
// there.
func rank(v any, t typeRef) int {
	if t.arrays > 0 {
		_, ok := v.([]any)
		return b2i(ok)
	}
	switch t.prim {
	case primString, primInputFile:
		_, ok := v.(string)
		return b2i(ok)
	case primInteger, primFloat:
		_, ok := v.(json.Number)
		return b2i(ok)
	case primBoolean:
		_, ok := v.(bool)
		return b2i(ok)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return 0
	}
	r := 3
	for _, f := range t.obj.order {
		if f.Const != "" {
			if m[f.Name] != f.Const {
				return 1
			}
			r = 5
		}
	}
	for _, f := range t.obj.order {
		if f.Required && m[f.Name] == nil {
			return r - 1
		}
	}
	return r
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// as checks v, at s, as a t, where rank(v, t) > 0.
func (c checker) as(v any, t typeRef, s spot) *apiError {
	if t.arrays > 0 {
		elem := typeRef{arrays: t.arrays - 1, prim: t.prim, obj: t.obj}
		for _, e := range v.([]any) {
			if err := c.one(e, elem, s); err != nil {
				return err
			}
		}
		return nil
	}
	switch t.prim {
	case primInteger:
		if _, err := strconv.ParseInt(string(v.(json.Number)), 10, 64); err != nil {
			return s.typeErr([]typeRef{t})
		}
	case primInputFile:
		name, ok := strings.CutPrefix(v.(string), "attach://")
		if _, att := c.req.files[name]; !ok || !att {
			return s.typeErr([]typeRef{t})
		}
	case primObject:
		return c.object(v.(map[string]any), t.obj)
	}
	return nil
}

// object checks m as an object of type o. The fields are checked in the map's order, and
// again by name when one fails, so that the error is always that of the first bad field.
func (c checker) object(m map[string]any, o *objSpec) *apiError {
	if len(o.subtypes) > 0 {
		return c.value(m, o.subtypes, spot{obj: o, field: "type"})
	}
	if err := c.fields(m, o, nil); err != nil {
		return c.fields(m, o, slices.Sorted(maps.Keys(m)))
	}
	return nil
}

// fields checks the members of m, an object of type o, in the order of keys (nil: the map's
// own order), then that o's required fields are there and o's rules hold.
func (c checker) fields(m map[string]any, o *objSpec, keys []string) *apiError {
	var n tally
	if keys == nil {
		for k, v := range m {
			if err := c.member(o, k, v, &n); err != nil {
				return err
			}
		}
	}
	for _, k := range keys {
		if err := c.member(o, k, m[k], &n); err != nil {
			return err
		}
	}
	if n.required != len(o.required) {
		for _, f := range o.required {
			if m[f.Name] != nil {
				continue
			}
			if _, there := m[f.Name]; there {
				return o.fail("Field %q must be of type %s", f.Name, typeList(f.types))
			}
			return o.fail("Can't find field %q", f.Name)
		}
	}
	if len(o.exactlyOne) > 0 && n.exactlyOne != 1 {
		return ruleErr(o, usedOf(m, o.exactlyOne), "exactly")
	}
	if n.atMostOne > 1 {
		return ruleErr(o, usedOf(m, o.atMostOne), "at most")
	}
	return nil
}

// tally counts the members of an object that are there (not null): its required fields and
// the fields of its rules.
type tally struct{ required, exactlyOne, atMostOne int }

// member checks the member k of an object of type o, whose value is v, and counts it in n.
func (c checker) member(o *objSpec, k string, v any, n *tally) *apiError {
	f := o.fields[k]
	if f == nil {
		return o.fail("Unknown field %q", k)
	}
	if v == nil { // null: as if absent
		return nil
	}
	n.required += b2i(f.Required)
	n.exactlyOne += b2i(f.exactlyOne)
	n.atMostOne += b2i(f.atMostOne)
	if err := c.value(v, f.types, spot{obj: o, field: k}); err != nil {
		return err
	}
	if s, ok := v.(string); ok && f.Max+len(f.Const) > 0 && takes(f.types, primString) {
		if f.Const != "" && s != f.Const {
			return o.fail("Field %q must be %q", k, f.Const)
		}
		return lengthCheck(o.name, &f.specField, s, false)
	}
	return nil
}

// usedOf are the fields of names that m has (not null).
func usedOf(m map[string]any, names []string) []string {
	var used []string
	for _, n := range names {
		if m[n] != nil {
			used = append(used, n)
		}
	}
	return used
}

// ruleErr is the error of an object of type o that uses the fields used where its type
// allows exactly one (how "exactly") or at most one (how "at most") of them.
func ruleErr(o *objSpec, used []string, how string) *apiError {
	if len(used) == 0 {
		if o.name == "InlineKeyboardButton" {
			return o.fail("Text buttons are unallowed in the inline keyboard")
		}
		return o.fail("exactly one of the fields %s must be used", strings.Join(o.exactlyOne, ", "))
	}
	return o.fail("%s one of the fields %s may be used, not %s", how,
		strings.Join(rule(o, how), ", "), strings.Join(used, " and "))
}

func rule(o *objSpec, how string) []string {
	if how == "exactly" {
		return o.exactlyOne
	}
	return o.atMostOne
}

// lengthCheck checks the length of s, the value of field f of owner (a type or a method), with
// Telegram's error for the fields whose error is known. An empty parameter (top) counts as
// none, as it does for Telegram.
func lengthCheck(owner string, f *specField, s string, top bool) *apiError {
	if f.Max == 0 || top && s == "" {
		return nil
	}
	n, unit := utf16Len(s), "characters"
	if f.Bytes {
		n, unit = len(s), "bytes"
	}
	if n >= f.Min && n <= f.Max {
		return nil
	}
	if code := lengthCode(owner, f.Name, n == 0); code != "" {
		return badRequest("%s", code)
	}
	if top {
		return badRequest("parameter %q must be %d-%d %s long", f.Name, f.Min, f.Max, unit)
	}
	return badRequest("can't parse %s: Field %q must be %d-%d %s long", typeLabel(owner), f.Name, f.Min, f.Max, unit)
}

// lengthCode is Telegram's error for a value of field of owner outside its length (empty
// when it is), or "" when the fake knows none.
func lengthCode(owner, field string, empty bool) string {
	switch owner + "." + field {
	case "InlineKeyboardButton.callback_data":
		return "BUTTON_DATA_INVALID"
	case "CopyTextButton.text":
		return "BUTTON_COPY_TEXT_INVALID"
	case "BotCommand.command":
		return "BOT_COMMAND_INVALID"
	case "BotCommand.description":
		return "BOT_COMMAND_DESCRIPTION_INVALID"
	case "answerCallbackQuery.text":
		return "MESSAGE_TOO_LONG"
	case "InputTextMessageContent.message_text":
		if empty {
			return "MESSAGE_EMPTY"
		}
		return "MESSAGE_TOO_LONG"
	}
	if strings.HasPrefix(owner, "InlineQueryResult") && field == "id" {
		return "RESULT_ID_INVALID"
	}
	return ""
}

// typeLabel names a type in errors as Telegram does where it is known.
func typeLabel(name string) string {
	switch name {
	case "InlineKeyboardButton":
		return "inline keyboard button"
	case "KeyboardButton":
		return "keyboard button"
	case "InlineKeyboardMarkup", "ReplyKeyboardMarkup", "ReplyKeyboardRemove", "ForceReply":
		return "reply keyboard markup"
	}
	return name
}

// paramLabel names a parameter's JSON in errors as Telegram does where it is known.
func paramLabel(name string) string {
	switch name {
	case "reply_markup":
		return "reply keyboard markup"
	case "results":
		return "inline query results"
	case "media":
		return "InputMedia"
	case "scope":
		return "BotCommandScope"
	}
	return strings.ReplaceAll(name, "_", " ")
}
