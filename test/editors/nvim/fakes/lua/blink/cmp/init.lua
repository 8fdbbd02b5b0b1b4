-- A minimal fake of blink.cmp's runtime registration API (add_source_provider and
-- add_filetype_source, as in blink.cmp 1.x), recording what the plugin registers.
local blink = { providers = {}, per_filetype = {} }

function blink.add_source_provider(id, config)
  assert(blink.providers[id] == nil, "Provider with id " .. id .. " already exists")
  assert(type(config.module) == "string", "a provider needs a module")
  blink.providers[id] = config
end

function blink.add_filetype_source(filetype, id)
  blink.per_filetype[filetype] = blink.per_filetype[filetype] or {}
  table.insert(blink.per_filetype[filetype], id)
end

return blink
