---@mod agent_lsp.reply Answering a server request after the user has decided.
---
--- A permission review stays open while the user reads the diff and picks hunks, so its answer
--- comes long after the handler returned. Neovim's LSP client answers a server request with
--- whatever the handler returns, and how a handler can wait differs by version:
---   * 0.10 and later run server-request handlers inside a coroutine: the handler yields and is
---     resumed with the answer (Neovim's own window/showMessageRequest handler does this).
---   * 0.7 to 0.9 call handlers on the main thread and send the return value at once. There the
---     pending request's id and the rpc layer's response sender are found among the upvalues of
---     the rpc function that called the handler (the frozen code of those releases), the
---     immediate response is suppressed, and the real answer is sent with the same id later.
--- When neither works, `async` reports that it cannot defer and the caller asks synchronously.

local M = {}

--- Finds the pending request in the calling rpc frames of Neovim 0.7–0.9.
---@return table|nil pending { id, send(result), suppress_immediate() }
local function find_legacy_pending()
  for level = 3, 25 do
    local info = debug.getinfo(level, "f")
    if not info then
      return nil
    end
    local fn = info.func
    local decoded, sender, sender_index, rpc_self
    for i = 1, 200 do
      local name, value = debug.getupvalue(fn, i)
      if not name then
        break
      end
      if name == "decoded" and type(value) == "table" then
        decoded = value
      elseif name == "send_response" and type(value) == "function" then
        sender, sender_index = value, i
      elseif name == "self" and type(value) == "table" then
        rpc_self = value
      end
    end
    if decoded and decoded.id ~= nil and type(decoded.method) == "string" then
      local id = decoded.id
      if sender then
        -- 0.7/0.8: `send_response` is a local function of rpc.start shared by its closures.
        return {
          id = id,
          send = function(result)
            sender(id, nil, result)
          end,
          suppress_immediate = function()
            debug.setupvalue(fn, sender_index, function(rid, err, result)
              debug.setupvalue(fn, sender_index, sender)
              if rid ~= id then
                return sender(rid, err, result)
              end
            end)
          end,
        }
      elseif rpc_self and type(rpc_self.send_response) == "function" then
        -- 0.9: Client:send_response is a method; shadow it on the instance for one call.
        local method = rpc_self.send_response
        return {
          id = id,
          send = function(result)
            method(rpc_self, id, nil, result)
          end,
          suppress_immediate = function()
            rawset(rpc_self, "send_response", function(s, rid, err, result)
              rawset(rpc_self, "send_response", nil)
              if rid ~= id then
                return method(s, rid, err, result)
              end
            end)
          end,
        }
      end
    end
  end
  return nil
end

--- True when a server-request handler running now could answer later.
---@return boolean
function M.can_defer()
  if coroutine.running() then
    return true
  end
  return find_legacy_pending() ~= nil
end

--- Runs `start(done)` from a server-request handler and returns what the handler must return.
--- `done(result)` answers the request (once; later calls are ignored). When `start` answers
--- before returning, that answer is returned directly on every version.
---@param start fun(done: fun(result: any))
---@return any result for the handler to return
function M.async(start)
  local answered, value = false, nil
  local deliver -- set once the handler has returned without an answer

  local function done(result)
    if answered then
      return
    end
    answered = true
    if result == nil then
      result = vim.NIL -- JSON null: "no answer", which the server counts as No
    end
    if deliver then
      deliver(result)
    else
      value = result
    end
  end

  local co = coroutine.running()
  if co then
    start(done)
    if answered then
      return value
    end
    deliver = function(result)
      local ok, err = coroutine.resume(co, result)
      if not ok then
        vim.notify("agent-lsp: sending the answer failed: " .. tostring(err), vim.log.levels.ERROR)
      end
    end
    return coroutine.yield()
  end

  local pending = find_legacy_pending()
  start(done)
  if answered then
    return value
  end
  if not pending then
    -- Nothing to answer later with: the caller should have checked can_defer().
    answered = true
    return vim.NIL
  end
  deliver = pending.send
  pending.suppress_immediate()
  -- Any non-nil value passes the rpc layer's check; its response is the one suppressed.
  return vim.NIL
end

return M
