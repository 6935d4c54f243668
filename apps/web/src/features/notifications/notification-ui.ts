import { notification } from 'antd';
import { limits } from '@inkstone/shared';

notification.config({ maxCount: limits.maxToasts });

export { notification };
