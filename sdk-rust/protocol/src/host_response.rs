use serde::de::{self, DeserializeOwned};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::host_call::check_host_call_id;

/// The response of a `resume` frame: the host's answer to the host call with the same `id`.
///
/// Exactly one of two shapes: `{"id":1,"ok":true,"result":{…}}` or `{"id":1,"ok":false,"error":"…"}`.
/// A response with both `result` and `error`, or with the one that does not match `ok`, is rejected.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "WireHostResponse")]
pub struct HostResponse {
    pub id: u32,
    pub ok: bool,
    /// The operation's result object when `ok` is true (see [`crate::results`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// Why the operation failed when `ok` is false, e.g. a refused write or a missing file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl HostResponse {
    /// A successful response.
    pub fn success(id: u32, result: Value) -> Self {
        HostResponse { id, ok: true, result: Some(result), error: None }
    }

    /// A failed response.
    pub fn failure(id: u32, error: impl Into<String>) -> Self {
        HostResponse { id, ok: false, result: None, error: Some(error.into()) }
    }

    /// The result as `Ok`, or the host's error message as `Err`.
    pub fn into_result(self) -> Result<Value, String> {
        match (self.ok, self.result, self.error) {
            (true, Some(result), _) => Ok(result),
            (_, _, Some(error)) => Err(error),
            _ => Err(String::from("host response carries neither result nor error")),
        }
    }

    /// The result decoded into one of [`crate::results`]' types (or any serde type), or a message saying why not:
    /// the host's own error when `ok` is false, or the decoding error.
    pub fn parse<T: DeserializeOwned>(self) -> Result<T, String> {
        let id = self.id;
        let value = self.into_result()?;
        serde_json::from_value(value).map_err(|e| format!("unexpected result of host call {}: {}", id, e))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WireHostResponse {
    id: u32,
    ok: bool,
    #[serde(default, deserialize_with = "present")]
    result: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    error: Option<Value>,
}

/// Keeps `"result": null` apart from an absent `result`: both shapes must be refused when they do not belong.
fn present<'de, D: Deserializer<'de>, T: DeserializeOwned>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

impl TryFrom<WireHostResponse> for HostResponse {
    type Error = String;

    fn try_from(wire: WireHostResponse) -> Result<Self, String> {
        check_host_call_id::<de::value::Error>(wire.id).map_err(|e| e.to_string())?;
        match (wire.ok, wire.result, wire.error) {
            (true, Some(result), None) => {
                if !result.is_object() {
                    return Err(String::from("result of a successful host response must be a JSON object"));
                }
                Ok(HostResponse::success(wire.id, result))
            }
            (false, None, Some(Value::String(error))) => Ok(HostResponse::failure(wire.id, error)),
            (false, None, Some(_)) => Err(String::from("error of a failed host response must be a string")),
            (true, _, Some(_)) => Err(String::from("a successful host response must not carry error")),
            (true, None, None) => Err(String::from("a successful host response must carry result")),
            (false, Some(_), _) => Err(String::from("a failed host response must not carry result")),
            (false, None, None) => Err(String::from("a failed host response must carry error")),
        }
    }
}
