// The live streams, by handle, plus the default stream. Handles are checked here so that a destroyed or
// made-up stream gives a status instead of a crash.
#pragma once

#include <memory>

#include "acl/acl_base.h"
#include "runtime/stream.h"

namespace aclnn_cpu::rt {

std::shared_ptr<Stream> CreateStream();
// nullptr handle -> the default stream (created on first use); unknown handle -> nullptr.
std::shared_ptr<Stream> FindStream(aclrtStream handle);
// Removes the handle; returns the stream so that the caller can drain it outside the registry lock.
std::shared_ptr<Stream> TakeStream(aclrtStream handle);
// Waits until every stream, the default one included, has run all its work. With consume_failures the
// failures are returned (the first one) and forgotten, as aclrtSynchronizeDevice does.
aclError SynchronizeAllStreams(bool consume_failures);
// Drains and stops the default stream; a later use starts a new one.
void ShutDownDefaultStream();

}  // namespace aclnn_cpu::rt
