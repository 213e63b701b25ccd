package telegramtest

import (
	"fmt"
	"net/http"

	"github.com/go-telegram/bot/models"
)

// A basic group that becomes a supergroup (an admin changes a setting, or it grows) gets a new
// chat id. Telegram tells the bot twice, with a service message in the old chat carrying
// migrate_to_chat_id and one in the new chat carrying migrate_from_chat_id, and from then on
// refuses every call on the old id with 400 and parameters.migrate_to_chat_id.

// MigrateOrder is the order in which Upgrade queues the two service messages of an upgrade.
type MigrateOrder int

// The orders of the service messages.
const (
	// OldChatFirst queues the message in the old chat (migrate_to_chat_id) first.
	OldChatFirst MigrateOrder = iota
	// NewChatFirst queues the message in the new chat (migrate_from_chat_id) first.
	NewChatFirst
	// Silent queues neither, as if the bot had lost both (a process killed after it took
	// them): the bot learns of the upgrade from a call on the old id.
	Silent
)

// basicGroupBase is where the fake's basic group ids start: -4000000001, -4000000002, ...,
// apart from its supergroups' -100… ids, as on Telegram.
const basicGroupBase = 4000000000

// errMigrated is Telegram's answer to a call on a group that became the supergroup to.
func errMigrated(to int64) *apiError {
	return &apiError{code: http.StatusBadRequest, desc: "Bad Request: group chat was upgraded to a supergroup chat",
		migrateTo: to}
}

// NewBasicGroup creates a basic group (chat type "group", an id like -4000000001) titled
// title, with the bot and members in it: a group that Upgrade can turn into a supergroup.
func (s *Server) NewBasicGroup(title string, members ...*Person) *Group {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.nextGroupID++
	return s.addGroupLocked(-(basicGroupBase + s.st.nextGroupID - 1001000000000), models.ChatTypeGroup, title, members)
}

// Upgrade turns the basic group g into a supergroup, as by, one of its members, did: a new
// chat of type "supergroup" with a -100… id, g's title and members. Unless order is Silent,
// it queues a message from by in each chat, with migrate_to_chat_id in g and
// migrate_from_chat_id in the new chat, in the order given. From then on every call of the bot
// on g's id fails with 400 "Bad Request: group chat was upgraded to a supergroup chat" and
// parameters.migrate_to_chat_id; g's messages stay as they were. It returns the supergroup.
func (g *Group) Upgrade(by *Person, order MigrateOrder) (*Group, error) {
	s := g.s
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.st.chats[g.id]
	switch {
	case old == nil || old.model.Type != models.ChatTypeGroup:
		return nil, fmt.Errorf("telegramtest: chat %d is no basic group", g.id)
	case old.migratedTo != 0:
		return nil, fmt.Errorf("telegramtest: group %d became %d already", g.id, old.migratedTo)
	case !old.members[by.id]:
		return nil, fmt.Errorf("%w: user %d in chat %d", ErrNotVisible, by.id, g.id)
	}
	s.st.nextGroupID++
	id := -s.st.nextGroupID
	c := &chatState{
		model:   models.Chat{ID: id, Type: models.ChatTypeSupergroup, Title: old.model.Title},
		members: map[int64]bool{},
		byID:    map[int]*msgState{},
	}
	for m := range old.members {
		c.members[m] = true
	}
	s.st.chats[id] = c
	old.migratedTo = id
	from := s.st.users[by.id].model
	to := s.serviceLocked(old, &from, func(m *models.Message) { m.MigrateToChatID = id })
	fromNew := s.serviceLocked(c, &from, func(m *models.Message) { m.MigrateFromChatID = g.id })
	switch order {
	case OldChatFirst:
		s.enqueueLocked("message", to)
		s.enqueueLocked("message", fromNew)
	case NewChatFirst:
		s.enqueueLocked("message", fromNew)
		s.enqueueLocked("message", to)
	}
	s.st.nextSeq()
	s.notifyLocked()
	return &Group{s: s, id: id}, nil
}

// serviceLocked returns a service message from the user in chat c, with the next message id
// of c, as set fills it in.
func (s *Server) serviceLocked(c *chatState, from *models.User, set func(m *models.Message)) *models.Message {
	c.nextID++
	m := &models.Message{ID: c.nextID, From: from, Chat: c.model, Date: s.nowUnix()}
	set(m)
	return m
}
