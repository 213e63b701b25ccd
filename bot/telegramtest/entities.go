package telegramtest

import (
	"encoding/json"
	"slices"

	"github.com/go-telegram/bot/models"
)

// entityTypes are the MessageEntity types a bot may send.
var entityTypes = map[models.MessageEntityType]bool{
	"mention": true, "hashtag": true, "cashtag": true, "bot_command": true, "url": true,
	"email": true, "phone_number": true, "bold": true, "italic": true, "underline": true,
	"strikethrough": true, "spoiler": true, "blockquote": true, "expandable_blockquote": true,
	"code": true, "pre": true, "text_link": true, "text_mention": true, "custom_emoji": true,
}

// parseEntityField decodes the entities a request gives for a text (field "entities") or a
// caption ("caption_entities") as JSON, and checks them against the visible text as Telegram
// does: a known type, an offset and length in UTF-16 units that lie inside the text, a user
// for a text_mention and a URL for a text_link. An empty field is no entities. Telegram takes
// entities or a parse_mode, not both: entities given with a parse_mode are refused.
func parseEntityField(raw, parseMode, visible string) ([]models.MessageEntity, *apiError) {
	if raw == "" || raw == "null" {
		return nil, nil
	}
	var ents []models.MessageEntity
	if err := json.Unmarshal([]byte(raw), &ents); err != nil {
		return nil, badRequest("can't parse entities JSON object")
	}
	if len(ents) == 0 {
		return nil, nil
	}
	if parseMode != "" {
		return nil, badRequest("can't parse entities: entities given together with parse_mode")
	}
	n := utf16Len(visible)
	for _, e := range ents {
		switch {
		case !entityTypes[e.Type]:
			return nil, badRequest("can't parse entities: unsupported entity type %q", e.Type)
		case e.Offset < 0 || e.Length <= 0 || e.Offset > n || e.Length > n-e.Offset:
			return nil, badRequest("can't parse entities: entity at offset %d of length %d lies outside the text of %d UTF-16 units", e.Offset, e.Length, n)
		case e.Type == "text_mention" && (e.User == nil || e.User.ID == 0):
			return nil, badRequest("can't parse entities: text_mention without a user")
		case e.Type == "text_link" && e.URL == "":
			return nil, badRequest("can't parse entities: text_link without a URL")
		}
	}
	return ents, nil
}

// EntityText returns the part of text that the entity e covers (offsets in UTF-16 units, as
// Telegram counts them), "" when e does not lie inside text.
func EntityText(text string, e models.MessageEntity) string {
	units, start, end := 0, -1, -1
	for i, r := range text {
		if units == e.Offset {
			start = i
		}
		if units == e.Offset+e.Length {
			end = i
		}
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
	}
	if units == e.Offset+e.Length {
		end = len(text)
	}
	if start < 0 || end < start || e.Length <= 0 {
		return ""
	}
	return text[start:end]
}

// Mentions returns the users the message mentions by a text_mention entity, in order.
func (m ChatMessage) Mentions() []int64 {
	var out []int64
	for _, e := range m.Entities {
		if e.Type == "text_mention" && e.User != nil {
			out = append(out, e.User.ID)
		}
	}
	return out
}

// sameEntities reports whether two lists of entities are equal.
func sameEntities(a, b []models.MessageEntity) bool {
	return slices.EqualFunc(a, b, func(x, y models.MessageEntity) bool {
		if x.Type != y.Type || x.Offset != y.Offset || x.Length != y.Length || x.URL != y.URL ||
			x.Language != y.Language || x.CustomEmojiID != y.CustomEmojiID {
			return false
		}
		if (x.User == nil) != (y.User == nil) {
			return false
		}
		return x.User == nil || x.User.ID == y.User.ID
	})
}
