-- Administrators reach 消息发布 (issue 14: messages to users and roles, with receipts) from the header dropdown.
INSERT INTO "header_menus" ("key", "label", "path", "icon", "role_types", "sort") VALUES
  ('messagePublish', '消息发布', '/system/messagePublish', 'NotificationOutlined', '["M"]', 8)
ON CONFLICT DO NOTHING;
