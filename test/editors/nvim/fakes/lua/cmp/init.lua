-- A minimal fake of nvim-cmp's registration API (the real plugin is not packaged in Debian):
-- what the plugin registers is recorded for the spec, which then asks the source as cmp would.
local cmp = { sources = {}, buffer_config = {}, setup = {} }

function cmp.register_source(name, source)
  assert(cmp.sources[name] == nil, "source " .. name .. " registered twice")
  cmp.sources[name] = source
  return #vim.tbl_keys(cmp.sources)
end

function cmp.setup.buffer(config)
  cmp.buffer_config[vim.api.nvim_get_current_buf()] = config
end

return cmp
