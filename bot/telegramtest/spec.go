package telegramtest

import (
	_ "embed" // the derived Bot API description
	"encoding/json"
	"fmt"
	"strings"
)

// The fake checks every call against the Bot API's own description, so that it refuses what
// the documentation forbids even where Telegram happens to let it pass: an unknown parameter, a
// missing required one, a value of the wrong type, an object with a field its type does not
// have, a button with no action or several. A fake that only knows what its authors believed
// would agree with their mistakes.
//
// testdata/botapi.json holds the part of the description the checks need, derived from
// api.json (the machine-readable Bot API, in shared/botapi-spec beside the repository) by
// TestSpecFile, which rewrites it with -update (-botapi names another api.json).

//go:generate go test -run TestSpecFile -update

//go:embed testdata/botapi.json
var specJSON []byte

// specFile is testdata/botapi.json: every method's parameters and every type a parameter can
// hold, directly or inside another.
type specFile struct {
	// Version is the Bot API the description is of ("Bot API 10.1").
	Version string `json:"version"`
	// Methods are each method's parameters, by the method's name.
	Methods map[string][]specField `json:"methods"`
	// Types are the object types, by name.
	Types map[string]specType `json:"types"`
}

// specField is a parameter of a method or a field of an object.
type specField struct {
	Name string `json:"name"`
	// Types are the types it may have: String, Integer, Float, Boolean, InputFile, an object
	// type, or "Array of " any of these.
	Types    []string `json:"types"`
	Required bool     `json:"required,omitempty"`
	// Const is the only value a String may have (the "type" of a subtype); "" allows any.
	Const string `json:"const,omitempty"`
	// Min and Max bound a String's length (Max 0: no bound), in UTF-16 units or, with Bytes,
	// in bytes.
	Min   int  `json:"min,omitempty"`
	Max   int  `json:"max,omitempty"`
	Bytes bool `json:"bytes,omitempty"`
}

// specType is an object type: either fields or, for an abstract type, the types it may be.
type specType struct {
	Fields []specField `json:"fields,omitempty"`
	// Subtypes are the types an abstract type stands for (InlineQueryResult: the 20 kinds).
	Subtypes []string `json:"subtypes,omitempty"`
	// ExactlyOne are fields of which exactly one must be present (a button's actions);
	// AtMostOne, fields of which at most one may be.
	ExactlyOne []string `json:"exactly_one,omitempty"`
	AtMostOne  []string `json:"at_most_one,omitempty"`
}

// A typeRef is one type a value may have: arrays deep of base.
type typeRef struct {
	arrays int      // how many "Array of" around base
	prim   primKind // the base when it is no object
	obj    *objSpec // the base when it is an object type
}

// primKind is a type that is no object.
type primKind uint8

const (
	primObject primKind = iota
	primString
	primInteger
	primFloat
	primBoolean
	primInputFile
)

// fieldSpec is a compiled specField.
type fieldSpec struct {
	specField
	types []typeRef
	// exactlyOne and atMostOne tell whether the field is one of its type's ExactlyOne or
	// AtMostOne.
	exactlyOne, atMostOne bool
}

// objSpec is a compiled object type.
type objSpec struct {
	name       string
	fields     map[string]*fieldSpec
	order      []*fieldSpec // as the description lists them
	required   []*fieldSpec // those of order that are required
	subtypes   []typeRef    // an abstract type's alternatives
	exactlyOne []string
	atMostOne  []string
}

// methodSpec is a compiled method.
type methodSpec struct {
	name   string
	params map[string]*fieldSpec
	order  []*fieldSpec
}

// compiledSpec is the description ready for the checks: methods by lower-case name.
type compiledSpec struct {
	version string
	methods map[string]*methodSpec
}

// theSpec is testdata/botapi.json, compiled when the package loads: a file that does not
// compile is a broken build, found by every test.
var theSpec = mustCompileSpec(specJSON)

func mustCompileSpec(data []byte) *compiledSpec {
	cs, err := compileSpec(data)
	if err != nil {
		panic("telegramtest: testdata/botapi.json: " + err.Error())
	}
	return cs
}

// compileSpec reads a specFile and resolves its type names.
func compileSpec(data []byte) (*compiledSpec, error) {
	var f specFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	objs := make(map[string]*objSpec, len(f.Types))
	for name := range f.Types {
		objs[name] = &objSpec{name: name, fields: map[string]*fieldSpec{}}
	}
	var err error
	ref := func(s string) typeRef {
		r, e := resolveType(s, objs)
		if e != nil && err == nil {
			err = e
		}
		return r
	}
	fields := func(in []specField) (map[string]*fieldSpec, []*fieldSpec) {
		byName := make(map[string]*fieldSpec, len(in))
		order := make([]*fieldSpec, 0, len(in))
		for _, sf := range in {
			fs := &fieldSpec{specField: sf}
			for _, t := range sf.Types {
				fs.types = append(fs.types, ref(t))
			}
			byName[sf.Name] = fs
			order = append(order, fs)
		}
		return byName, order
	}
	for name, t := range f.Types {
		o := objs[name]
		o.fields, o.order = fields(t.Fields)
		for _, s := range t.Subtypes {
			o.subtypes = append(o.subtypes, ref(s))
		}
		o.exactlyOne, o.atMostOne = t.ExactlyOne, t.AtMostOne
		for _, f := range o.order {
			if f.Required {
				o.required = append(o.required, f)
			}
		}
		for i, names := range [][]string{t.ExactlyOne, t.AtMostOne} {
			for _, n := range names {
				f := o.fields[n]
				if f == nil {
					return nil, fmt.Errorf("type %s: rule names %q, which is not a field", name, n)
				}
				f.exactlyOne, f.atMostOne = f.exactlyOne || i == 0, f.atMostOne || i == 1
			}
		}
	}
	cs := &compiledSpec{version: f.Version, methods: make(map[string]*methodSpec, len(f.Methods))}
	for name, params := range f.Methods {
		m := &methodSpec{name: name}
		m.params, m.order = fields(params)
		cs.methods[strings.ToLower(name)] = m
	}
	return cs, err
}

// resolveType reads a type as the description spells it ("Array of InlineKeyboardButton").
func resolveType(s string, objs map[string]*objSpec) (typeRef, error) {
	var r typeRef
	for {
		rest, ok := strings.CutPrefix(s, "Array of ")
		if !ok {
			break
		}
		r.arrays++
		s = rest
	}
	switch s {
	case "String":
		r.prim = primString
	case "Integer":
		r.prim = primInteger
	case "Float":
		r.prim = primFloat
	case "Boolean":
		r.prim = primBoolean
	case "InputFile":
		r.prim = primInputFile
	default:
		r.obj = objs[s]
		if r.obj == nil {
			return r, fmt.Errorf("unknown type %q", s)
		}
	}
	return r, nil
}

// String spells r as the description does.
func (r typeRef) String() string {
	base := ""
	switch r.prim {
	case primString:
		base = "String"
	case primInteger:
		base = "Integer"
	case primFloat:
		base = "Float"
	case primBoolean:
		base = "Boolean"
	case primInputFile:
		base = "InputFile"
	default:
		base = r.obj.name
	}
	return strings.Repeat("Array of ", r.arrays) + base
}
