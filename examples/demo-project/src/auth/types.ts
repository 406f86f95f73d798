export interface User {
  id: string;
  active: boolean;
  token: string;
}
