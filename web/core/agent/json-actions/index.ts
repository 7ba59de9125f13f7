// The JSON action protocol (seed 002, issue 17): tools for models without native tool calling.
export { parseJsonAction, type JsonAction, type JsonActionCode, type ParsedAction } from './parse';
export { toolResultEnvelope, ENVELOPE_MARK, PROTOCOL_ERROR_NAME } from './envelope';
export { protocolInstructions, ASK_USER_SCHEMA } from './instructions';
export { jsonProtocolMessages, jsonRequestHistory } from './request-history';
export { jsonAnswer, type JsonAnswer } from './answer';
