-- enterprise information proposals (enterprise_changes) become change rounds of the 企业信息 area (XYGL_QYXX):
-- pending → '1' saved, not submitted (the enterprise submits it with its reason and attachments through the change
-- dialog); approved → '2'; rejected → '-1' with its reason. Rounds are numbered per enterprise by submission time.
INSERT INTO "credit_changes" ("id", "gn_coding", "business_id", "enterprise_id", "round", "status", "kind",
  "change_type", "change_type_code", "logbook", "data_list", "saved", "submitted", "sb_time", "cz_time",
  "audit_record", "auditor_name", "pass", "created_by", "created_by_name", "created_at", "updated_at", "version")
SELECT c."id", 'XYGL_QYXX', c."enterprise_id", c."enterprise_id",
  row_number() OVER (PARTITION BY c."enterprise_id" ORDER BY c."submitted_at", c."id"),
  CASE c."status" WHEN 'approved' THEN '2' WHEN 'rejected' THEN '-1' ELSE '1' END,
  'info', '信息变更/企业基本信息', 'info/basic', '企业信息修改（原变更申请）',
  coalesce((
    SELECT jsonb_agg(jsonb_build_object(
      'changeField', CASE i->>'field' WHEN 'legalPerson' THEN 'legal_person' WHEN 'registeredCapital'
        THEN 'registered_capital' WHEN 'establishedAt' THEN 'established_at' ELSE i->>'field' END,
      'fieldName', i->>'label',
      'oldValue', i->'oldValue', 'newValue', i->'newValue', 'oldText', i->'oldValue', 'newText', i->'newValue',
      'dataType', CASE i->>'field' WHEN 'region' THEN 'select' WHEN 'registeredCapital' THEN 'number'
        WHEN 'establishedAt' THEN 'date' ELSE 'text' END))
    FROM jsonb_array_elements(c."items") i), '[]'::jsonb),
  true, c."status" <> 'pending',
  CASE WHEN c."status" <> 'pending' THEN c."submitted_at" END,
  c."decided_at", c."reason", u."user_name",
  CASE c."status" WHEN 'approved' THEN true WHEN 'rejected' THEN false END,
  c."submitted_by", s."user_name", c."submitted_at", coalesce(c."decided_at", c."submitted_at"), 1
FROM "enterprise_changes" c
LEFT JOIN "users" u ON u."id" = c."decided_by"
LEFT JOIN "users" s ON s."id" = c."submitted_by";
