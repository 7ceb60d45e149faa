import { jwtDecode } from "jwt-decode";
export default () => {
  const token =
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
  let error;
  try {
    jwtDecode("not.a.token");
  } catch (e) {
    error = e.message;
  }
  return { payload: jwtDecode(token), header: jwtDecode(token, { header: true }), error };
};
